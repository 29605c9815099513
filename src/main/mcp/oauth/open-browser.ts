import { spawn } from 'node:child_process';

/**
 * Opens a URL in the person's browser: `$BROWSER` when set (the first of a colon-separated list, `%s` standing
 * for the URL, as xdg-utils read it; this is also how sign-in is scripted in tests), else the system's opener.
 */
export function openInBrowser(url: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const browser = env.BROWSER?.split(':').find((entry) => entry.trim());
  const [command, args] = browser
    ? browser.includes('%s')
      ? [
          browser.split(' ')[0],
          browser
            .split(' ')
            .slice(1)
            .map((part) => part.replace('%s', url)),
        ]
      : [browser, [url]]
    : systemOpener(url);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env });
    child.once('error', (error) => reject(new Error(`could not open a browser with "${command}": ${error.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

function systemOpener(url: string): [string, string[]] {
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  return ['xdg-open', [url]];
}
