import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeToolCall, type ExecuteCallOptions } from '../../src/main/agent/tool-execution.js';
import { allowAllTools } from '../../src/main/tool/tool-gate.js';
import { closeSharedBrowsers } from '../../src/main/browser/browser-launcher.js';
import { ToolCollection } from '../../src/main/tool/tool-collection.js';
import { browserUseTool } from '../../src/main/tool/browser-use.js';
import { webSearchTool } from '../../src/main/tool/web-search.js';
import type { AnyTool } from '../../src/main/tool/tool.js';
import { browserStateOf } from '../../src/main/browser/page-report.js';
import { htmlPage, startFixtureServer, type FixtureServer } from '../support/fixture-server.js';
import type { TestToolContext } from '../support/tool-context.js';
import { act, actOk, activePage, browserContext, indexOf } from './browser-test-kit.js';

const TALL_PAGE = htmlPage(
  `<h1>Top</h1><div style="height:3000px">spacer</div><p id="deep">The hidden treasure is here</p>
   <button>Bottom button</button><div style="height:1500px"></div>`,
  'Tall',
);

let server: FixtureServer;
let ctx: TestToolContext;

beforeAll(async () => {
  server = await startFixtureServer({
    '/form': htmlPage(
      `<form action="/submitted" method="get">
         <input name="name" placeholder="Your name">
         <textarea name="note" placeholder="Note"></textarea>
         <button type="submit">Send form</button>
       </form>`,
      'Form',
    ),
    '/submitted': (request) =>
      htmlPage(
        `<p id="result">Hello ${request.url.searchParams.get('name')}, note: ${request.url.searchParams.get('note')}</p>`,
        'Submitted',
      ),
    '/dropdown': htmlPage(
      `<select id="fruit" onchange="document.getElementById('out').textContent = 'chosen ' + this.value">
         <option value="a">Apple</option><option value="b">Banana</option><option value="c">Cherry</option>
       </select><p id="out">nothing chosen</p>`,
      'Dropdown',
    ),
    '/tabs': htmlPage(`<a href="/form" target="_blank">Open form in new tab</a>`, 'Tabs'),
    '/tall': TALL_PAGE,
    '/iframe': htmlPage(
      `<p id="status">frame not clicked</p>
       <iframe src="/inner" width="500" height="200"></iframe>`,
      'Outer',
    ),
    '/inner': htmlPage(
      `<button onclick="parent.document.getElementById('status').textContent = 'frame button clicked'">Inside frame</button>`,
      'Inner',
    ),
    '/shadow': htmlPage(
      `<p id="status">shadow not clicked</p><fancy-widget></fancy-widget>
       <script>
         customElements.define('fancy-widget', class extends HTMLElement {
           constructor() {
             super();
             const root = this.attachShadow({ mode: 'open' });
             root.innerHTML = '<input placeholder="Shadow input"><button>Shadow button</button>';
             root.querySelector('button').addEventListener('click', () => {
               document.getElementById('status').textContent = 'shadow clicked with ' + root.querySelector('input').value;
             });
           }
         });
       </script>`,
      'Shadow',
    ),
    '/modal': htmlPage(
      `<button>Behind the modal</button>
       <div style="position:fixed; inset:0; background:rgba(0,0,0,.5)"><button>Close modal</button></div>`,
      'Modal',
    ),
    '/dialogs': htmlPage(
      `<button onclick="document.title = confirm('Delete the draft?') ? 'deleted' : 'kept'">Delete</button>`,
      'Dialogs',
    ),
    '/keys': htmlPage(
      `<input id="field" placeholder="Press keys here" onkeydown="if (event.key === 'Enter') document.title = 'Entered ' + this.value">`,
      'Keys',
    ),
    '/listeners': htmlPage(
      `<span id="plain">Just text</span><span id="live">Clickable span</span><div role="button">Role button</div>
       <button style="display:none">Hidden button</button><a>Anchor without href</a>
       <script>document.getElementById('live').addEventListener('click', () => { document.title = 'span clicked'; });</script>`,
      'Listeners',
    ),
  });
  ctx = browserContext();
});

afterAll(async () => {
  await ctx?.session.release();
  await closeSharedBrowsers();
  await server?.close();
});

describe('browser_use on real pages', () => {
  it('fills a form and submits it', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/form') });
    expect(state).toContain('Current URL: ' + server.url('/form'));
    await actOk(ctx, { action: 'input_text', index: indexOf(state, 'Your name'), text: 'Ada' });
    const typed = await actOk(ctx, { action: 'input_text', index: indexOf(state, 'Note'), text: 'first try' });
    expect(typed).toContain('value="Ada"');
    const after = await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Send form') });
    expect(after).toContain('/submitted?name=Ada&note=first+try');
    expect(after).toContain('Title: Submitted');
    const page = await activePage(ctx);
    expect(await page.textContent('#result')).toBe('Hello Ada, note: first try');
  });

  it('runs calls issued together one after the other, in order', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/form') });
    const [typed, clicked] = await Promise.all([
      act(ctx, { action: 'input_text', index: indexOf(state, 'Your name'), text: 'Zed' }),
      act(ctx, { action: 'click_element', index: indexOf(state, 'Send form') }),
    ]);
    expect(typed.output).toContain('Typed "Zed"');
    expect(clicked.output).toContain('/submitted?name=Zed');
  });

  it('lists and selects dropdown options', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/dropdown') });
    const index = indexOf(state, '<select');
    const options = await actOk(ctx, { action: 'get_dropdown_options', index });
    expect(options).toContain('0: "Apple" (value="a") [selected]');
    expect(options).toContain('2: "Cherry" (value="c")');
    const selected = await actOk(ctx, { action: 'select_dropdown_option', index, text: 'Cherry' });
    expect(selected).toContain('Selected "Cherry"');
    expect(selected).toContain('selected="Cherry"');
    const missing = await act(ctx, { action: 'select_dropdown_option', index, text: 'Durian' });
    expect(missing.error).toContain('has no option "Durian"');
    expect(missing.error).toContain('"Banana"');
    const notSelect = await act(ctx, { action: 'get_dropdown_options', index: 99 });
    expect(notSelect.error).toContain('No element with index 99');
  });

  it('opens, switches and closes tabs, and follows a tab the page opens', async () => {
    const first = await actOk(ctx, { action: 'go_to_url', url: server.url('/tabs') });
    const opened = await actOk(ctx, { action: 'open_tab', url: server.url('/dropdown') });
    const newTab = Number(/in new tab (\d+)/.exec(opened)?.[1]);
    expect(opened).toMatch(new RegExp(`\\* tab ${newTab}: Dropdown`));
    const firstTab = Number(/\(tab (\d+)\)/.exec(first)?.[1]);
    const switched = await actOk(ctx, { action: 'switch_tab', tab_id: firstTab });
    expect(switched).toContain(`Current URL: ${server.url('/tabs')}`);
    const popup = await actOk(ctx, { action: 'click_element', index: indexOf(switched, 'Open form in new tab') });
    expect(popup).toMatch(/The page opened tab \d+; it is now the active tab/);
    expect(popup).toContain(`Current URL: ${server.url('/form')}`);
    const closed = await actOk(ctx, { action: 'close_tab', tab_id: newTab });
    expect(closed).not.toContain('Dropdown —');
    const bad = await act(ctx, { action: 'switch_tab', tab_id: 42 });
    expect(bad.error).toContain('There is no tab 42');
    await actOk(ctx, { action: 'close_tab' });
  });

  it('scrolls by screens and to a text', async () => {
    const top = await actOk(ctx, { action: 'go_to_url', url: server.url('/tall') });
    expect(top).toContain('top of the page');
    expect(top).not.toContain('Bottom button');
    const down = await actOk(ctx, { action: 'scroll_down' });
    expect(down).toMatch(/Scrolled down 800 pixels/);
    expect(down).toContain('800 pixels above');
    const up = await actOk(ctx, { action: 'scroll_up', scroll_amount: 300 });
    expect(up).toContain('500 pixels above');
    const found = await actOk(ctx, { action: 'scroll_to_text', text: 'hidden treasure' });
    expect(found).toContain('Bottom button');
    const missing = await act(ctx, { action: 'scroll_to_text', text: 'not on this page at all' });
    expect(missing.error).toContain('is not on the page');
  });

  it('clicks an element inside a same-origin iframe', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/iframe') });
    const line = state.split('\n').find((l) => l.includes('Inside frame'));
    expect(line).toContain('(in iframe)');
    await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Inside frame') });
    const page = await activePage(ctx);
    expect(await page.textContent('#status')).toBe('frame button clicked');
  });

  it('types into and clicks elements inside an open shadow root', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/shadow') });
    expect(state).toMatch(/<button>Shadow button<\/button> \(in shadow root\)/);
    await actOk(ctx, { action: 'input_text', index: indexOf(state, 'Shadow input'), text: 'deep' });
    await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Shadow button') });
    const page = await activePage(ctx);
    expect(await page.textContent('#status')).toBe('shadow clicked with deep');
  });

  it('lists elements with click listeners, roles and hrefs, but not hidden or inert ones', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/listeners') });
    expect(state).toContain('Clickable span');
    expect(state).toContain('Role button');
    expect(state).not.toContain('Just text</span>');
    expect(state).not.toContain('Hidden button');
    expect(state).not.toContain('Anchor without href');
    const clicked = await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Clickable span') });
    expect(clicked).toContain('Title: span clicked');
  });

  it('leaves out elements a modal covers', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/modal') });
    expect(state).toContain('Close modal');
    expect(state).not.toContain('Behind the modal');
  });

  it('answers a confirm dialog and tells the model what it said', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/dialogs') });
    const clicked = await actOk(ctx, { action: 'click_element', index: indexOf(state, 'Delete') });
    expect(clicked).toContain('showed a confirm dialog ("Delete the draft?"); it was accepted');
    expect(clicked).toContain('Title: deleted');
  });

  it('sends keys, goes back, refreshes and waits', async () => {
    const state = await actOk(ctx, { action: 'go_to_url', url: server.url('/keys') });
    await actOk(ctx, { action: 'input_text', index: indexOf(state, 'Press keys here'), text: 'abc' });
    expect(await actOk(ctx, { action: 'send_keys', keys: 'Enter' })).toContain('Title: Entered abc');
    const wrongKey = await act(ctx, { action: 'send_keys', keys: 'Hello' });
    expect(wrongKey.error).toContain('"Hello" is not a key name');
    await actOk(ctx, { action: 'go_to_url', url: server.url('/form') });
    expect(await actOk(ctx, { action: 'go_back' })).toContain(`Current URL: ${server.url('/keys')}`);
    expect(await actOk(ctx, { action: 'refresh' })).toContain('Reloaded the page');
    expect(await actOk(ctx, { action: 'wait', seconds: 0.3 })).toContain('Waited 0.3 seconds');
  });

  it('reports the current state for the next-step prompt without acting', async () => {
    await actOk(ctx, { action: 'go_to_url', url: server.url('/dropdown') });
    const report = await browserStateOf(ctx.session.browser);
    expect(report?.text).toContain(`Current URL: ${server.url('/dropdown')}`);
    expect(report?.images[0]?.mimeType).toBe('image/jpeg');
    expect(await browserStateOf(browserContext().session.browser)).toBeUndefined();
  });

  it('attaches a JPEG screenshot of the viewport', async () => {
    const result = await act(ctx, { action: 'go_to_url', url: server.url('/form') });
    expect(result.images).toHaveLength(1);
    const image = result.images![0]!;
    expect(image.mimeType).toBe('image/jpeg');
    const bytes = Buffer.from(image.data, 'base64');
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect([...bytes.subarray(-2)]).toEqual([0xff, 0xd9]);
    // SOF0 marker carries the pixel size: it must be the configured viewport
    const sof = bytes.indexOf(Buffer.from([0xff, 0xc0]));
    expect(bytes.readUInt16BE(sof + 5)).toBe(800);
    expect(bytes.readUInt16BE(sof + 7)).toBe(1280);
  });
});

function callOptions(): ExecuteCallOptions {
  return {
    sessionId: ctx.sessionId,
    workspace: ctx.workspace,
    agent: 'manus',
    tools: new ToolCollection([browserUseTool, webSearchTool] as AnyTool[]),
    session: ctx.session,
    emit: ctx.emit,
    signal: ctx.signal,
    gate: allowAllTools,
    maxObserve: 10_000,
  };
}

describe('browser_use through the agent tool runner', () => {
  it('shows the call as tool events with the screenshot attached', async () => {
    const outcome = await executeToolCall(
      {
        id: 'call-1',
        name: 'browser_use',
        arguments: JSON.stringify({ action: 'go_to_url', url: server.url('/form') }),
      },
      callOptions(),
    );
    expect(outcome.observation).toContain('<button type="submit">Send form</button>');
    expect(outcome.observation).toContain('[1 image(s) attached]');
    const done = ctx.events.find(
      (event) => event.type === 'tool' && event.callId === 'call-1' && event.status === 'done',
    );
    expect(done?.type === 'tool' && done.images?.[0]?.mimeType).toBe('image/jpeg');
    const progress = ctx.events.find((event) => event.type === 'tool' && event.progress === 'Starting the browser');
    expect(progress).toBeDefined();
  });

  it('hands the model a readable error for missing parameters', async () => {
    const outcome = await executeToolCall(
      { id: 'call-2', name: 'browser_use', arguments: JSON.stringify({ action: 'click_element' }) },
      callOptions(),
    );
    expect(outcome.result.error).toContain('Invalid arguments for browser_use');
    expect(outcome.result.error).toContain('click_element needs `index`: the number of an element from the page state');
  });
});
