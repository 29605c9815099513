import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

/** What the desktop shell itself saw (a crashed window, a hung quit): one line each, in `<dataDir>/logs/desktop.log`. */
export type DesktopLog = (line: string) => void;

export function desktopLog(dataDir: string): DesktopLog {
  const folder = join(dataDir, 'logs');
  return (line) => {
    const stamped = `${new Date().toISOString()} ${line}`;
    console.error(stamped);
    try {
      mkdirSync(folder, { recursive: true });
      appendFileSync(join(folder, 'desktop.log'), `${stamped}\n`);
    } catch {
      // a log that cannot be written must not take the app down with it
    }
  };
}
