import { htmlPage, jsonReply, type FixtureRoute } from '../support/fixture-server.js';

/** Result pages and API replies shaped like each engine's real ones, pointing at pages on `baseUrl`. */
export function fakeEngineRoutes(baseUrl: string): Record<string, FixtureRoute> {
  const page = (n: number) => `${baseUrl}/page/${n}`;
  return {
    '/ddg/html/': (request) =>
      htmlPage(
        `<div class="result results_links result--ad"><a class="result__a" href="https://ads.example/x">Sponsored</a></div>
         ${[1, 2, 3]
           .map(
             (n) => `<div class="result results_links web-result">
               <h2 class="result__title"><a class="result__a" href="//duckduckgo.com/l/?uddg=${encodeURIComponent(page(n))}&amp;rut=abc">DDG result ${n} for ${request.url.searchParams.get('q')}</a></h2>
               <a class="result__snippet" href="#">Snippet &amp; text ${n}</a></div>`,
           )
           .join('')}`,
      ),
    '/bing/search': (request) =>
      htmlPage(
        `<ol id="b_results">
          <li class="b_algo"><h2><a href="https://www.bing.com/ck/a?!&amp;&amp;p=x&amp;u=a1${Buffer.from(page(1)).toString('base64url')}&amp;ntb=1">Bing one (${request.url.searchParams.get('count')})</a></h2>
            <div class="b_caption"><p>First bing snippet</p></div></li>
          <li class="b_algo"><h2><a href="${page(2)}">Bing two</a></h2><p class="b_lineclamp2">Second bing snippet</p></li>
        </ol>`,
      ),
    '/baidu/s': htmlPage(
      `<div id="content_left">
        <div class="result c-container" mu="${page(1)}"><h3 class="t"><a href="http://www.baidu.com/link?url=abc">百度 结果一</a></h3>
          <div class="c-abstract">第一个摘要</div></div>
        <div class="result c-container"><h3 class="t"><a href="${page(2)}">百度 结果二</a></h3>
          <span class="content-right_8Zs40">第二个摘要</span></div>
      </div>`,
    ),
    '/google/customsearch/v1': (request) =>
      request.url.searchParams.get('key') === 'g-key' && request.url.searchParams.get('cx') === 'g-cx'
        ? jsonReply({ items: [{ title: 'Google one', link: page(1), snippet: 'Google snippet' }] })
        : jsonReply({ error: { code: 403, message: 'bad key' } }, 403),
    '/brave/search': (request) =>
      request.headers['x-subscription-token'] === 'b-key'
        ? jsonReply({
            web: {
              results: [{ title: 'Brave <strong>one</strong>', url: page(1), description: 'Brave &amp; snippet' }],
            },
          })
        : jsonReply({ error: 'unauthorized' }, 401),
    '/tavily/search': (request) => {
      const body = JSON.parse(request.body || '{}') as { query?: string; max_results?: number };
      return request.headers.authorization === 'Bearer t-key' && request.method === 'POST'
        ? jsonReply({
            results: [{ title: `Tavily ${body.query} x${body.max_results}`, url: page(2), content: 'Tavily snippet' }],
          })
        : jsonReply({ detail: 'unauthorized' }, 401);
    },
    '/searx/search': (request) =>
      request.url.searchParams.get('format') === 'json'
        ? jsonReply({ results: [{ title: 'Searx one', url: page(3), content: 'Searx snippet' }] })
        : htmlPage('<p>html is not what was asked</p>'),
    '/broken/search': { status: 500, contentType: 'text/plain', body: 'internal error' },
    '/garbage/search': { contentType: 'text/html', body: '<html><body>definitely not json {</body></html>' },
    '/page/1': htmlPage('<h1>Page one</h1><p>The first page has <em>useful</em> facts.</p>', 'One'),
    '/page/2': htmlPage(`<h1>Page two</h1><p>${'long text '.repeat(2_000)}</p>`, 'Two'),
    '/page/3': { contentType: 'text/plain', body: 'plain text page three' },
  };
}
