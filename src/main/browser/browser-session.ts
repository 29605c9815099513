import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Dialog, Download, Locator, Page } from 'playwright';
import type { BrowserSettings } from '../../shared/settings/browser-settings.js';
import { CLICK_LISTENER_TRACKER } from './dom-index-script.js';
import { indexPage, type PageState } from './page-state.js';
import { finishedWithinLimits } from './download-limits.js';
import { createFree } from '../workspace/free-name.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';
import { workspaceBytes } from '../workspace/workspace-size.js';
import type { EgressGuard } from './egress-guard.js';

const MIB = 1024 * 1024;

export interface DownloadOutcome {
  /** path relative to the workspace, when saved */
  path?: string;
  url: string;
  error?: string;
}

export interface BrowserSessionOptions {
  settings: BrowserSettings;
  /** host path of the session workspace (downloads land there) */
  workspace: string;
  /** the session's private folder (0700) Playwright writes downloads into before they are copied in */
  artifactsDir: string;
  /** the workspace quota in MB, read at each download (0: no quota); downloads count against it */
  workspaceQuotaMb: () => number;
  /** called once the context is closed (closes the session's browser and its private folder) */
  releaseBrowser: () => Promise<void>;
  /** the proxy the context's traffic goes through; none when private addresses are allowed */
  egressGuard?: EgressGuard;
}

export interface Screenshot {
  mimeType: 'image/jpeg';
  /** base64 */
  data: string;
}

/**
 * One session's browsing: its own BrowserContext (cookies isolated from other sessions), numbered tabs,
 * the active tab, and downloads saved into the session workspace.
 */
export class BrowserSession {
  /** a random tag name per session, so a page cannot forge the numbers the agent clicks by */
  readonly indexAttribute = `data-manus-${randomBytes(4).toString('hex')}`;
  private readonly tabIds = new WeakMap<Page, number>();
  private readonly tabs = new Map<number, Page>();
  private nextTabId = 0;
  private activeTabId: number | undefined;
  private pendingDownloads: Promise<DownloadOutcome>[] = [];
  private downloadsStarted = 0;
  /** dialogs the pages showed since the last report, as notes for the model */
  private dialogNotes: string[] = [];
  private contextClosed = false;
  /** the tail of the queue of actions; one runs at a time */
  private queue: Promise<unknown> = Promise.resolve();
  /** tabs opened by the page itself (target=_blank, window.open) during the current action */
  private openedByPage: number[] = [];

  /** tabs the pages opened past `settings.maxTabs` since the last report, closed as they opened */
  private tabsClosedOverLimit = 0;
  /** aborted when the session closes: downloads still running are cancelled */
  private readonly closing = new AbortController();
  readonly settings: BrowserSettings;
  readonly workspace: string;
  readonly egressGuard: EgressGuard | undefined;

  private constructor(
    readonly context: BrowserContext,
    private readonly options: BrowserSessionOptions,
  ) {
    this.settings = options.settings;
    this.workspace = options.workspace;
    this.egressGuard = options.egressGuard;
  }

  static async open(context: BrowserContext, options: BrowserSessionOptions): Promise<BrowserSession> {
    const { settings } = options;
    const session = new BrowserSession(context, options);
    context.setDefaultTimeout(settings.actionTimeoutMs);
    context.setDefaultNavigationTimeout(settings.navigationTimeoutMs);
    await context.addInitScript({ content: CLICK_LISTENER_TRACKER });
    context.on('page', (page) => {
      if (session.tabIds.has(page)) return;
      // a page opening pop-ups in a loop would grow the browser without bound: extras close as they open
      if (session.tabs.size >= settings.maxTabs) {
        session.tabsClosedOverLimit++;
        void page.close().catch(() => undefined);
        return;
      }
      const id = session.register(page);
      session.openedByPage.push(id);
    });
    context.on('close', () => (session.contextClosed = true));
    for (const page of context.pages()) session.register(page);
    return session;
  }

  private register(page: Page): number {
    const known = this.tabIds.get(page);
    if (known !== undefined) return known;
    const id = this.nextTabId++;
    this.tabIds.set(page, id);
    this.tabs.set(id, page);
    page.on('download', (download) => {
      this.downloadsStarted++;
      this.pendingDownloads.push(this.saveDownload(download));
    });
    page.on('dialog', (dialog) => void this.answerDialog(id, dialog));
    page.on('close', () => {
      this.tabs.delete(id);
      if (this.activeTabId === id) this.activeTabId = this.lastTabId();
    });
    this.activeTabId ??= id;
    return id;
  }

  private lastTabId(): number | undefined {
    return [...this.tabs.keys()].at(-1);
  }

  /** The tab actions act on; a blank one is opened when none is left. */
  async activePage(): Promise<Page> {
    const active = this.activeTabId === undefined ? undefined : this.tabs.get(this.activeTabId);
    if (active && !active.isClosed()) return active;
    return this.openTab();
  }

  get activeTab(): number | undefined {
    return this.activeTabId;
  }

  async openTab(url?: string): Promise<Page> {
    if (this.tabs.size >= this.settings.maxTabs) {
      throw new Error(
        `${this.tabs.size} tabs are open, the most this browser keeps (browser.maxTabs); close one with close_tab first.`,
      );
    }
    const page = await this.context.newPage();
    const id = this.register(page);
    this.openedByPage = this.openedByPage.filter((opened) => opened !== id);
    this.activeTabId = id;
    if (url) await page.goto(url);
    return page;
  }

  async switchTab(id: number): Promise<Page> {
    const page = this.tabs.get(id);
    if (!page || page.isClosed()) throw new Error(`There is no tab ${id}. Open tabs: ${this.tabList()}.`);
    this.activeTabId = id;
    await page.bringToFront();
    return page;
  }

  async closeTab(id: number): Promise<void> {
    const page = this.tabs.get(id);
    if (!page) throw new Error(`There is no tab ${id}. Open tabs: ${this.tabList()}.`);
    await page.close();
    this.tabs.delete(id);
    if (this.activeTabId === id) this.activeTabId = this.lastTabId();
  }

  private tabList(): string {
    return [...this.tabs.keys()].join(', ') || 'none';
  }

  /**
   * Runs one action after the ones before it have finished (the agent may issue several calls at once, and
   * typing and clicking in parallel would interleave). Tabs the page opened before it do not take over.
   */
  runAction<T>(action: () => Promise<T>): Promise<T> {
    const run = this.queue.then(() => {
      this.openedByPage = [];
      return action();
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Makes the newest tab the page opened during this action the active one; its id, if there was such a tab. */
  adoptTabOpenedByPage(): number | undefined {
    const opened = this.openedByPage.filter((id) => this.tabs.has(id)).at(-1);
    this.openedByPage = [];
    if (opened !== undefined) this.activeTabId = opened;
    return opened;
  }

  /** The element numbered `index` in the last page state, searched in every frame of the active tab. */
  async elementByIndex(index: number): Promise<Locator> {
    const page = await this.activePage();
    const selector = `[${this.indexAttribute}="${index}"]`;
    for (const frame of page.frames()) {
      const locator = frame.locator(selector);
      if ((await locator.count().catch(() => 0)) > 0) return locator.first();
    }
    throw new Error(
      `No element with index ${index} on the page (it may have changed since the last state). ` +
        'Use an index from the page state below.',
    );
  }

  async state(): Promise<PageState> {
    const page = await this.activePage();
    const domIndex = await indexPage(page, {
      attribute: this.indexAttribute,
      expansion: this.settings.viewportExpansion,
      maxElements: this.settings.maxElements,
    });
    const tabs = await Promise.all(
      [...this.tabs.entries()].map(async ([id, tab]) => ({
        id,
        url: tab.url(),
        title: tab === page ? domIndex.title : await tab.title().catch(() => ''),
      })),
    );
    return {
      ...domIndex,
      url: page.url(),
      activeTabId: this.tabIds.get(page) ?? 0,
      tabs,
    };
  }

  async screenshot(): Promise<Screenshot> {
    const page = await this.activePage();
    const buffer = await page.screenshot({ type: 'jpeg', quality: this.settings.screenshotQuality });
    return { mimeType: 'image/jpeg', data: buffer.toString('base64') };
  }

  /** Whether the context and its browser still work (the browser may have crashed or been closed). */
  get alive(): boolean {
    return !this.contextClosed && (this.context.browser()?.isConnected() ?? true);
  }

  /** How many downloads began in this session, to tell whether an action started one. */
  get downloadCount(): number {
    return this.downloadsStarted;
  }

  /**
   * Dialogs would block the page: alerts and confirms are accepted (the agent's click asked for what they
   * confirm), prompts are dismissed since there is no text to give; each is reported once.
   */
  private async answerDialog(tabId: number, dialog: Dialog): Promise<void> {
    const accept = dialog.type() !== 'prompt';
    this.dialogNotes.push(
      `Tab ${tabId} showed a ${dialog.type()} dialog ("${dialog.message().slice(0, 200)}"); it was ${accept ? 'accepted' : 'dismissed'}.`,
    );
    await (accept ? dialog.accept() : dialog.dismiss()).catch(() => undefined);
  }

  /** Dialogs answered since the last call. */
  takeDialogNotes(): string[] {
    const notes = this.dialogNotes;
    this.dialogNotes = [];
    return notes;
  }

  /** Waits for downloads started so far to land in the workspace and reports them once. */
  async settleDownloads(): Promise<DownloadOutcome[]> {
    const pending = this.pendingDownloads;
    this.pendingDownloads = [];
    return Promise.all(pending);
  }

  /** A note for the model when pages opened tabs past the limit since the last call (they were closed). */
  takeTabLimitNote(): string | undefined {
    const closed = this.tabsClosedOverLimit;
    this.tabsClosedOverLimit = 0;
    if (closed === 0) return undefined;
    return (
      `The page tried to open ${closed} more ${closed === 1 ? 'tab' : 'tabs'} than the ${this.settings.maxTabs} ` +
      'this browser keeps (browser.maxTabs); they were closed as they opened.'
    );
  }

  /**
   * Playwright saves into the session's private folder, outside the workspace, counting against the workspace
   * quota and its time limit as it grows; the file is then copied in through the workspace's held handle under a
   * name that was free (exclusive create): a link the sandbox planted under the name is never written through.
   */
  private async saveDownload(download: Download): Promise<DownloadOutcome> {
    const url = download.url();
    try {
      const quotaMb = this.options.workspaceQuotaMb();
      const finished = await finishedWithinLimits(download, {
        timeoutMs: this.settings.downloadTimeoutMs,
        space: quotaMb > 0 ? { leftBytes: quotaMb * MIB - workspaceBytes(this.workspace), quotaMb } : undefined,
        artifactsDir: this.options.artifactsDir,
        signal: this.closing.signal,
      });
      const path = WorkspaceRoot.with(this.workspace, (root) => {
        const folder = root.target(this.settings.downloadsFolder).parts;
        root.createFolders(folder);
        const name = createFree(root, folder, downloadName(download.suggestedFilename()), { copyOf: finished }, 2);
        return join(...folder, name);
      });
      return { url, path };
    } catch (error) {
      // the report adds its own full stop
      return { url, error: (error instanceof Error ? error.message : String(error)).replace(/\.$/, '') };
    } finally {
      await download.delete().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    this.closing.abort();
    await this.settleDownloads().catch(() => undefined);
    await this.context.close().catch(() => undefined);
    await this.options.releaseBrowser();
  }
}

/** The page's name for a download, path separators and leading dots dropped. */
function downloadName(suggested: string): string {
  return basename(suggested.replace(/\\/g, '/')).replace(/^\.+/, '') || 'download';
}
