import { z } from 'zod';

export const BROWSER_ACTIONS = [
  'go_to_url',
  'click_element',
  'input_text',
  'scroll_down',
  'scroll_up',
  'scroll_to_text',
  'send_keys',
  'get_dropdown_options',
  'select_dropdown_option',
  'go_back',
  'refresh',
  'web_search',
  'wait',
  'extract_content',
  'switch_tab',
  'open_tab',
  'close_tab',
] as const;
export type BrowserActionName = (typeof BROWSER_ACTIONS)[number];

const MAX_WAIT_SECONDS = 60;

/** A required parameter whose error names the action and says what to pass. */
function needs<T extends z.ZodType>(action: BrowserActionName, field: string, what: string, schema: T): T {
  return schema.clone({
    ...schema.def,
    error: (issue: { input?: unknown }) =>
      issue.input === undefined
        ? `${action} needs \`${field}\`: ${what}.`
        : `\`${field}\` of ${action} must be ${what}.`,
  } as T['def']);
}

const elementIndex = (action: BrowserActionName) =>
  needs(action, 'index', 'the number of an element from the page state (an integer ≥ 1)', z.number().int().min(1));
const text = (action: BrowserActionName, what: string) => needs(action, 'text', what, z.string().min(1));
const tabId = (action: BrowserActionName) =>
  needs(action, 'tab_id', 'the id of an open tab from the page state (an integer ≥ 0)', z.number().int().min(0));
const url = (action: BrowserActionName) => needs(action, 'url', 'the address to open (text)', z.string().min(1));
const scrollAmount = z.number().int().positive().optional();

/** Each action with exactly the parameters it uses; `execute` dispatches on this union. */
export const BrowserActionSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('go_to_url'), url: url('go_to_url') }),
  z.object({ action: z.literal('click_element'), index: elementIndex('click_element') }),
  z.object({
    action: z.literal('input_text'),
    index: elementIndex('input_text'),
    text: needs('input_text', 'text', 'the text to type (a string)', z.string()),
  }),
  z.object({ action: z.literal('scroll_down'), scroll_amount: scrollAmount }),
  z.object({ action: z.literal('scroll_up'), scroll_amount: scrollAmount }),
  z.object({ action: z.literal('scroll_to_text'), text: text('scroll_to_text', 'the visible text to scroll to') }),
  z.object({
    action: z.literal('send_keys'),
    keys: needs('send_keys', 'keys', 'key names such as "Enter", "Tab Tab", "Control+A"', z.string().min(1)),
  }),
  z.object({ action: z.literal('get_dropdown_options'), index: elementIndex('get_dropdown_options') }),
  z.object({
    action: z.literal('select_dropdown_option'),
    index: elementIndex('select_dropdown_option'),
    text: text('select_dropdown_option', 'the text (or value) of the option to choose'),
  }),
  z.object({ action: z.literal('go_back') }),
  z.object({ action: z.literal('refresh') }),
  z.object({
    action: z.literal('web_search'),
    query: needs('web_search', 'query', 'what to search for', z.string().min(1)),
  }),
  z.object({
    action: z.literal('wait'),
    seconds: needs(
      'wait',
      'seconds',
      `a number of seconds up to ${MAX_WAIT_SECONDS}`,
      z.number().positive().max(MAX_WAIT_SECONDS),
    )
      .optional()
      .default(3),
  }),
  z.object({
    action: z.literal('extract_content'),
    goal: needs('extract_content', 'goal', 'what to extract from the page (text)', z.string().min(1)),
  }),
  z.object({ action: z.literal('switch_tab'), tab_id: tabId('switch_tab') }),
  z.object({ action: z.literal('open_tab'), url: url('open_tab') }),
  z.object({ action: z.literal('close_tab'), tab_id: tabId('close_tab').optional() }),
]);
export type BrowserAction = z.infer<typeof BrowserActionSchema>;

/**
 * What the model sees: one object with an `action` enum (providers want a plain object schema, not a union);
 * the per-action rules of BrowserActionSchema are enforced by the refinement.
 */
export const BrowserUseParametersSchema = z
  .object({
    action: z.enum(BROWSER_ACTIONS).describe('The browser action to perform'),
    url: z.string().optional().describe('URL for go_to_url and open_tab'),
    index: z
      .number()
      .int()
      .optional()
      .describe(
        'Element number from the page state, for click_element, input_text, get_dropdown_options, select_dropdown_option',
      ),
    text: z.string().optional().describe('Text for input_text, scroll_to_text, select_dropdown_option'),
    scroll_amount: z
      .number()
      .int()
      .optional()
      .describe('Pixels to scroll for scroll_down / scroll_up (default: one screen)'),
    tab_id: z
      .number()
      .int()
      .optional()
      .describe('Tab id for switch_tab and close_tab (close_tab defaults to the current tab)'),
    query: z.string().optional().describe('Search query for web_search'),
    goal: z.string().optional().describe('What to extract, for extract_content'),
    keys: z.string().optional().describe('Keys for send_keys, e.g. "Enter", "Escape", "Control+A", "Tab Tab"'),
    seconds: z.number().optional().describe(`Seconds for wait (default 3, at most ${MAX_WAIT_SECONDS})`),
  })
  .superRefine((value, ctx) => {
    const checked = BrowserActionSchema.safeParse(value);
    if (checked.success) return;
    for (const issue of checked.error.issues)
      ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
  });
export type BrowserUseParameters = z.infer<typeof BrowserUseParametersSchema>;
