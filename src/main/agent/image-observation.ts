import type { CoreEventInput, Image } from '../../shared/events.js';
import { noticeEvent, type NoticeArgs, type NoticeParams } from '../../shared/notice-codes.js';
import { ImageDescriptionError, type ImageDescriber } from '../llm/image-description.js';
import type { Llm } from '../llm/types.js';

/** Images of one tool result that are described; the rest are counted in a note (a figure loop can make dozens). */
export const MAX_DESCRIBED_PER_RESULT = 4;

/** How a session's images reach a model that cannot see: described by the vision model, or why they cannot be. */
export type ImageSight =
  | { kind: 'describer'; describer: ImageDescriber }
  /** no vision model, with the reason the main model and the person are told (its code and values for the notice) */
  | { kind: 'none'; reason: string; why: Pick<NoticeParams['image_dropped'], 'reason' | 'visionModel'> };

/** The sight of a session without a vision model: images are left out, and the note says how to set one. */
export function noVisionModel(model: string): ImageSight {
  return {
    kind: 'none',
    reason: `${model} cannot see images and no vision model is set (Settings → Model providers → Vision model, or \`manus config set visionLlm <provider>\`)`,
    why: { reason: 'no_vision_model' },
  };
}

/** The settings name a vision model that cannot serve; `why` says why (a model that does not take images). */
export function unusableVisionModel(model: string, why: string, visionModel: string): ImageSight {
  return {
    kind: 'none',
    reason: `${model} cannot see images and ${why} (Settings → Model providers)`,
    why: { reason: 'vision_model_unusable', visionModel },
  };
}

export interface ImageObserverDeps {
  llm: Llm;
  sight: ImageSight;
  sessionId: string;
  emit: (event: CoreEventInput) => void;
}

/** What a model that cannot see reads in place of `images` from `source` ('' for a model that sees them). */
export type ImageObserver = (images: Image[], source: string, signal: AbortSignal) => Promise<string>;

function label(image: Image, index: number, count: number): string {
  return `image ${index + 1} of ${count}${image.path ? ` (${image.path})` : ''}`;
}

/**
 * Turns the images a tool returned into text for a model that cannot see them: each described by the vision model
 * and marked as a description, or a note saying it was left out and why. A model that sees gets '' (and the images).
 */
export function createImageObserver(deps: ImageObserverDeps): ImageObserver {
  let droppedNoticeSent = false;
  const notice = (...args: NoticeArgs<'image_dropped' | 'image_description_failed'>) =>
    deps.emit(noticeEvent(deps.sessionId, 'warning', ...args));

  return async (images, source, signal) => {
    if (images.length === 0 || deps.llm.supportsVision) return '';
    const { sight } = deps;
    if (sight.kind === 'none') {
      if (!droppedNoticeSent) {
        droppedNoticeSent = true;
        notice('image_dropped', `Images from ${source} were not shown to ${deps.llm.model}: ${sight.reason}`, {
          count: images.length,
          model: deps.llm.model,
          ...sight.why,
        });
      }
      return `[${images.length} image(s) from ${source} left out: ${sight.reason}]`;
    }
    const notes: string[] = [];
    for (const [index, image] of images.slice(0, MAX_DESCRIBED_PER_RESULT).entries()) {
      const which = label(image, index, images.length);
      try {
        const description = await sight.describer.describe(image, { source, signal });
        notes.push(
          `[Description of ${which} from ${source}, written by the vision model ${sight.describer.model} because ${deps.llm.model} cannot see images:]\n${description}\n[End of the description]`,
        );
      } catch (error) {
        if (!(error instanceof ImageDescriptionError)) throw error;
        notice('image_description_failed', `Could not describe ${which} from ${source}: ${error.message}`, {
          index: index + 1,
          count: images.length,
          source,
          error: error.message,
        });
        notes.push(
          `[${which} from ${source} could not be described: ${error.message}. The person sees it; you do not.]`,
        );
      }
    }
    const rest = images.length - MAX_DESCRIBED_PER_RESULT;
    if (rest > 0)
      notes.push(`[${rest} more image(s) from ${source} not described: at most ${MAX_DESCRIBED_PER_RESULT} are]`);
    return notes.join('\n');
  };
}
