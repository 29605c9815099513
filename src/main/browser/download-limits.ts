import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Download } from 'playwright';

/** how often the bytes of the downloads in flight are measured against what the workspace has left */
const DOWNLOAD_CHECK_MS = 100;
const MIB = 1024 * 1024;

export interface DownloadLimits {
  /** a download still running after this long is cancelled */
  timeoutMs: number;
  /** what the workspace may still take, in bytes, with the quota it comes from; undefined when there is no quota */
  space: { leftBytes: number; quotaMb: number } | undefined;
  /** the session's private folder Playwright writes its downloads into (nothing else is written there) */
  artifactsDir: string;
  /** the session's browser is closing */
  signal: AbortSignal;
}

/** A download stopped by one of its limits; the message says which, for the model. */
class DownloadStopped extends Error {
  override readonly name = 'DownloadStopped';
}

/** The bytes the files directly in `folder` hold (Playwright names each download by a GUID there). */
async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries.map(async (entry) =>
      entry.isFile() ? (await lstat(join(folder, entry.name)).catch(() => undefined))?.size : 0,
    ),
  );
  return sizes.reduce<number>((sum, size) => sum + (size ?? 0), 0);
}

function overQuota(space: { leftBytes: number; quotaMb: number }): DownloadStopped {
  const left = (Math.max(0, space.leftBytes) / MIB).toFixed(1);
  return new DownloadStopped(
    `it is larger than the ${left} MB the workspace has left under its quota of ${space.quotaMb} MB ` +
      '(sandbox.workspaceQuotaMb); it was cancelled and deleted',
  );
}

/**
 * Waits for a download to finish within its limits and gives the finished file's path. It is cancelled, so that
 * Chromium stops writing, as soon as the downloads in flight hold more than the workspace has left, at its time
 * limit, or when the browser closes.
 */
export async function finishedWithinLimits(download: Download, limits: DownloadLimits): Promise<string> {
  const { space } = limits;
  let stop: (reason: DownloadStopped) => void = () => undefined;
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  // a limit may fire after the download settled: nobody waits for it then
  stopped.catch(() => undefined);
  const timer = setTimeout(
    () => stop(new DownloadStopped(`not finished after ${limits.timeoutMs} ms; it was cancelled and deleted`)),
    limits.timeoutMs,
  );
  const onClose = () => stop(new DownloadStopped('the browser closed before it finished'));
  limits.signal.addEventListener('abort', onClose, { once: true });
  if (limits.signal.aborted) onClose();
  let watching = true;
  const watchSpace = async (left: { leftBytes: number; quotaMb: number }) => {
    while (watching) {
      if ((await folderBytes(limits.artifactsDir)) > left.leftBytes) return stop(overQuota(left));
      await delay(DOWNLOAD_CHECK_MS);
    }
  };
  if (space) void watchSpace(space);
  try {
    const path = await Promise.race([download.path(), stopped]);
    // a fast download can finish between two measurements
    if (space && (await lstat(path)).size > space.leftBytes) throw overQuota(space);
    return path;
  } catch (error) {
    await download.cancel().catch(() => undefined);
    throw error;
  } finally {
    watching = false;
    clearTimeout(timer);
    limits.signal.removeEventListener('abort', onClose);
  }
}
