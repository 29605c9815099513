// Node module hooks (see register.mjs): a `?raw` import is a module whose default export is the file's text.
import { readFile } from 'node:fs/promises';

export async function load(url, context, nextLoad) {
  const parsed = new URL(url);
  if (parsed.protocol !== 'file:' || parsed.search !== '?raw') return nextLoad(url, context);
  parsed.search = '';
  const text = await readFile(parsed, 'utf8');
  return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
}
