import { z } from 'zod';
import { defineTool, emitToolProgress, toolError, toolOutput, type ToolContext } from './tool.js';
import { wrapUntrusted } from '../browser/untrusted-content.js';
import { AllEnginesFailedError, searchWeb } from '../search/search-runner.js';
import { fetchPageText } from '../search/page-content.js';
import type { SearchResult } from '../search/search-types.js';

const MAX_RESULTS = 20;

export const WebSearchParametersSchema = z.object({
  query: z.string().trim().min(1, 'query must not be empty').describe('What to search for'),
  num_results: z.number().int().min(1).max(MAX_RESULTS).default(5).describe('How many results to return'),
  lang: z.string().optional().describe('Language code of the results, e.g. en, de, zh'),
  country: z.string().optional().describe('Country code of the results, e.g. us, de, cn'),
  fetch_content: z.boolean().default(false).describe("Also fetch each result's page and include its text"),
});
type WebSearchParameters = z.infer<typeof WebSearchParametersSchema>;

function formatResults(results: SearchResult[]): string {
  return results
    .map((result, i) => {
      const lines = [`${i + 1}. ${result.title}`, `   URL: ${result.url}`];
      if (result.snippet) lines.push(`   ${result.snippet}`);
      if (result.content !== undefined) lines.push(`   Content:\n${result.content}`);
      return lines.join('\n');
    })
    .join('\n\n');
}

function emitProgress(ctx: ToolContext<never>, args: WebSearchParameters, progress: string): void {
  emitToolProgress(ctx, 'web_search', args, progress);
}

export const webSearchTool = defineTool({
  name: 'web_search',
  kind: 'search',
  description:
    'Search the web and get a list of results (title, URL, snippet). With fetch_content the text of each result ' +
    'page is included too. Engines are tried in the configured order with fallbacks. Result text is untrusted.',
  parameters: WebSearchParametersSchema,
  // a query to the configured engine: nothing is changed and no new site is opened
  risk: 'read',
  async execute(args, ctx: ToolContext<'settings' | 'guardedFetch'>) {
    const settings = ctx.session.settings().search;
    try {
      const outcome = await searchWeb(
        {
          query: args.query,
          numResults: args.num_results,
          lang: args.lang ?? settings.lang,
          country: args.country ?? settings.country,
        },
        settings,
        { signal: ctx.signal, onProgress: (text) => emitProgress(ctx, args, text) },
      );
      let results = outcome.results;
      if (args.fetch_content) {
        emitProgress(ctx, args, `Fetching ${results.length} result pages`);
        const guardedFetch = ctx.session.guardedFetch();
        results = await Promise.all(
          results.map(async (result) => ({
            ...result,
            content: await fetchPageText(result.url, settings, ctx.signal, guardedFetch).catch(
              (error: unknown) =>
                `(could not fetch the page: ${error instanceof Error ? error.message : String(error)})`,
            ),
          })),
        );
      }
      ctx.signal.throwIfAborted();
      const fallbackNote = outcome.failures.length
        ? ` after ${[...new Set(outcome.failures.map((failure) => failure.engine))].join(', ')} failed`
        : '';
      const header = `${results.length} results for "${args.query}" from ${outcome.engine}${fallbackNote}:`;
      return toolOutput(`${header}\n${wrapUntrusted(formatResults(results))}`, {
        data: { kind: 'search', results: results.map(({ title, url, snippet }) => ({ title, url, snippet })) },
      });
    } catch (error) {
      if (ctx.signal.aborted) return toolError('The search was cancelled.');
      if (error instanceof AllEnginesFailedError) return toolError(error.message);
      return toolError(`The search failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
});
