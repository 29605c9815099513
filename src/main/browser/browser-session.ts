import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { BrowserContext, Dialog, Download, Locator, Page } from 'playwright';
import type { BrowserSettings } from '../../shared/settings/browser-settings.js';
import { CLICK_LISTENER_TRACKER } from './dom-index-script.js';
import { indexPage, type PageState } from './page-state.js';
import { createFree } from '../workspace/free-name.js';
import { WorkspaceRoot } from '../workspace/workspace-root.js';
import type { EgressGuard } from './egress-guard.js';

export interface DownloadOutcome {
  /** path relative to the workspace, when saved */
  path?: string;
  url: string;
  error?: string;
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

  private constructor(
    readonly context: BrowserContext,
    readonly settings: BrowserSettings,
    readonly workspace: string,
    private readonly releaseBrowser: () => Promise<void>,
    /** the proxy the context's traffic goes through; none when private addresses are allowed */
    readonly egressGuard: EgressGuard | undefined,
  ) {}

  /** `releaseBrowser` is called once the context is closed (lets the shared browser close when idle). */
  static async open(
    context: BrowserContext,
    settings: BrowserSettings,
    workspace: string,
    releaseBrowser: () => Promise<void>,
    egressGuard?: EgressGuard,
  ): Promise<BrowserSession> {
    const session = new BrowserSession(context, settings, workspace, releaseBrowser, egressGuard);
    context.setDefaultTimeout(settings.actionTimeoutMs);
    context.setDefaultNavigationTimeout(settings.navigationTimeoutMs);
    await context.addInitScript({ content: CLICK_LISTENER_TRACKER });
    context.on('page', (page) => {
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

  /**
   * Playwright saves into a private folder outside the workspace; the file is then copied in through the
   * workspace's held handle under a name that was free (exclusive create): a link the sandbox planted under the
   * name is never written through.
   */
  private async saveDownload(download: Download): Promise<DownloadOutcome> {
    const url = download.url();
    const staging = await mkdtemp(join(tmpdir(), 'manus-download-'));
    try {
      const staged = join(staging, 'download');
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`not finished after ${this.settings.downloadTimeoutMs} ms`)),
          this.settings.downloadTimeoutMs,
        );
      });
      try {
        await Promise.race([download.saveAs(staged), timeout]);
      } finally {
        clearTimeout(timer);
      }
      const path = WorkspaceRoot.with(this.workspace, (root) => {
        const folder = root.target(this.settings.downloadsFolder).parts;
        root.createFolders(folder);
        const name = createFree(root, folder, downloadName(download.suggestedFilename()), { copyOf: staged }, 2);
        return join(...folder, name);
      });
      return { url, path };
    } catch (error) {
      // the report adds its own full stop
      return { url, error: (error instanceof Error ? error.message : String(error)).replace(/\.$/, '') };
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }

  async close(): Promise<void> {
    await this.settleDownloads().catch(() => undefined);
    await this.context.close().catch(() => undefined);
    await this.releaseBrowser();
  }
}

/** The page's name for a download, path separators and leading dots dropped. */
function downloadName(suggested: string): string {
  return basename(suggested.replace(/\\/g, '/')).replace(/^\.+/, '') || 'download';
}
