import type { CoreHandlers } from '../../shared/contract.js';
import { chooseEngine } from '../sandbox/engine-choice.js';
import { dockerClient } from '../sandbox/engine.js';
import { sandboxStatus } from '../sandbox/sandbox-admin.js';
import { SandboxBuildJobs } from './sandbox-build-job.js';
import type { SettingsAccess } from './settings-access.js';

export type SandboxHandlers = Pick<CoreHandlers, 'sandboxStatus' | 'buildSandbox'>;

/** The sandbox settings screen: the engine and image it finds, and the one image build it may start. */
export function createSandboxHandlers({ settings }: { settings: SettingsAccess }): SandboxHandlers {
  const builds = new SandboxBuildJobs();
  return {
    sandboxStatus: async () => {
      const { image, engine, workspace } = settings.read().sandbox;
      try {
        const choice = chooseEngine(engine);
        const status = await sandboxStatus(dockerClient(choice), image, choice, workspace);
        return {
          engine: { reachable: status.engine.reachable, version: status.engine.version, error: status.engine.error },
          image: { name: status.image.name, present: status.image.present, sizeMb: status.image.sizeMb },
          build: builds.current(),
        };
      } catch (error) {
        // a context that does not exist, an engine that fails mid-answer
        return {
          engine: { reachable: false, error: (error as Error).message },
          image: { name: image, present: false },
          build: builds.current(),
        };
      }
    },
    buildSandbox: ({ method }) => builds.start(method, settings.read().sandbox.image, settings.read().sandbox.engine),
  };
}
