import type { TFunction } from 'i18next';
import type { MessageParams } from '../../../shared/events.js';
import { isNoticeCode, noticeNeedsParams, noticeReasons } from '../../../shared/notice-codes.js';
import { recogniseProblem } from './problems.js';

/**
 * The core's coded messages (errors, notices) in the UI's language. The core sends a stable code, parameters, and an
 * English text; a code this renderer knows is translated with the parameters, anything else keeps the English text
 * (an older or newer core, a session stored before codes had parameters).
 */

/** An error as the person reads it: what happened, what to do, and which fix the UI can open for them. */
export interface ReadableProblem {
  title: string;
  fix?: string;
  /** the error is about the provider's settings: the UI offers to open them */
  opensProviderSettings: boolean;
  /** the title and fix came from the code: the core's own text is detail, not the reason */
  coded: boolean;
}

/** errors whose fix is in the provider's settings (its key, model name, address) */
const PROVIDER_SETTINGS_CODES = new Set([
  'unauthorized',
  'forbidden',
  'no_api_key',
  'not_found',
  'invalid_config',
  'bad_request',
  'no_tool_support',
  'no_llm',
]);

/** An error with a reason this renderer has its own text for (`network_refused`...) reads that; else its code's. */
function errorKey(t: TFunction, code: string, params: MessageParams): string {
  const reason = params.reason;
  if (typeof reason !== 'string') return code;
  const specific = `${code}_${reason}`;
  return t(`coreMessages.errors.${specific}.title`, { defaultValue: '' }) ? specific : code;
}

/** The fix for the case at hand: the wait the provider asked for, or the environment the model was set up by. */
function codedFix(t: TFunction, key: string, params: MessageParams): string {
  const variant =
    typeof params.retryAfterSeconds === 'number'
      ? 'fixAfterWait'
      : params.configuredBy === 'environment'
        ? 'fixEnvironment'
        : 'fix';
  return t(`${key}.${variant}`, { ...params, defaultValue: t(`${key}.fix`, params) });
}

export function readableProblem(
  t: TFunction,
  code: string,
  message: string,
  params: MessageParams = {},
  hint?: string,
): ReadableProblem {
  const key = `coreMessages.errors.${errorKey(t, code, params)}`;
  const opensProviderSettings = PROVIDER_SETTINGS_CODES.has(code);
  if (t(`${key}.title`, { defaultValue: '' })) {
    return { title: t(`${key}.title`, params), fix: codedFix(t, key, params), opensProviderSettings, coded: true };
  }
  // a code this renderer has no text for: recognised by its words, else said as the core said it
  const known = recogniseProblem(code, message);
  if (known) {
    const fix = hint ?? t(`problems.${known}.fix`);
    return { title: t(`problems.${known}.title`), fix, opensProviderSettings, coded: false };
  }
  return { title: t('problems.generic.title'), fix: hint, opensProviderSettings, coded: false };
}

/** The i18n keys of a notice, most specific first: its reason's own text, its code's, Plan-Act's block. */
export function noticeKeys(code: string, params?: MessageParams): string[] {
  const keys = [`coreMessages.notices.${code}`, `planAct.notices.${code}`];
  const reason = params?.reason;
  const reasons = isNoticeCode(code) ? noticeReasons(code) : [];
  return typeof reason === 'string' && reasons.includes(reason) ? [`${keys[0]}_${reason}`, ...keys] : keys;
}

/** A notice's text in the UI's language; the English text when its code has none. */
export function readableNotice(t: TFunction, code: string, text: string, params?: MessageParams): string {
  // a notice stored before it had parameters keeps its own words: its numbers and names are only in its text
  if (noticeNeedsParams(code) && !params) return text;
  return t(noticeKeys(code, params), { ...params, defaultValue: text });
}
