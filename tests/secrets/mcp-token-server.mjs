// An MCP server (server-everything over stdio) that first prints the token of its environment to stderr,
// split across two writes, as a careless server logging its configuration would.
const [entry, ...rest] = process.argv.slice(2);
const token = process.env.SERVICE_API_TOKEN ?? '';
process.stderr.write(`config: token=${token.slice(0, 7)}`);
await new Promise((resolve) => setTimeout(resolve, 50));
process.stderr.write(`${token.slice(7)} loaded\n`);
process.argv = [process.argv[0], entry, ...rest];
await import(entry);
