import type { SearchEngineName } from '../../../shared/settings/search-settings.js';
import type { SearchEngine } from '../search-types.js';
import { duckDuckGoEngine } from './duckduckgo.js';
import { bingEngine } from './bing.js';
import { googleEngine } from './google.js';
import { baiduEngine } from './baidu.js';
import { braveEngine } from './brave.js';
import { tavilyEngine } from './tavily.js';
import { searxngEngine } from './searxng.js';

export const SEARCH_ENGINE_REGISTRY: Record<SearchEngineName, SearchEngine> = {
  duckduckgo: duckDuckGoEngine,
  bing: bingEngine,
  google: googleEngine,
  baidu: baiduEngine,
  brave: braveEngine,
  tavily: tavilyEngine,
  searxng: searxngEngine,
};
