import { A2A_PROTOCOL_VERSION, type AgentCard, type AgentSkill } from '@a2a-js/sdk';
import { duplicateInterfacesForLegacy } from '@a2a-js/sdk/compat/v0_3';

export const JSONRPC_PATH = '/a2a/jsonrpc';
export const REST_PATH = '/a2a/rest';
const TEXT_MODES = ['text/plain'];
const BEARER_SCHEME = 'bearer';

function skill(id: string, name: string, description: string, tags: string[], examples: string[]): AgentSkill {
  return {
    id,
    name,
    description,
    tags,
    examples,
    inputModes: TEXT_MODES,
    outputModes: TEXT_MODES,
    securityRequirements: [],
  };
}

/** What Manus can do, as other agents discover it. */
const MANUS_SKILLS: AgentSkill[] = [
  skill(
    'general_task',
    'General task solving',
    'Plans and carries out a multi-step task with its tools and returns the answer.',
    ['agent', 'planning', 'general'],
    ['Compare the three most popular Python web frameworks and write a summary.'],
  ),
  skill(
    'code_and_data',
    'Code and data',
    'Writes and runs Python and shell commands in a sandbox: analysis, scripts, file conversions.',
    ['python', 'shell', 'data-analysis', 'sandbox'],
    ['Load sales.csv and chart monthly revenue.', 'Write a script that renames these files by date.'],
  ),
  skill(
    'web_research',
    'Web research and browsing',
    'Searches the web and drives a real browser to read pages, fill forms and extract content.',
    ['web-search', 'browser', 'research'],
    ['Find the current LTS version of Node.js and its end-of-life date.'],
  ),
  skill(
    'files',
    'Files',
    'Creates, reads and edits files in its workspace.',
    ['files', 'editing'],
    ['Draft a README for this project.'],
  ),
];

/**
 * The A2A card: JSON-RPC and HTTP+JSON interfaces (v1.0 and v0.3) at `baseUrl`, streaming and push notifications on,
 * every call carrying the bearer token.
 */
export function manusAgentCard(baseUrl: string, version: string): AgentCard {
  const iface = (path: string, protocolBinding: string) => ({
    url: `${baseUrl}${path}`,
    protocolBinding,
    tenant: '',
    protocolVersion: A2A_PROTOCOL_VERSION,
  });
  return {
    name: 'Manus',
    description:
      'Manus Desktop: a local-first general AI agent that plans, writes and runs code in a sandbox, browses the web and uses MCP tools.',
    // v0.3 mirrors of the same URLs: older A2A clients (message/send, /.well-known/agent.json) are served too
    supportedInterfaces: duplicateInterfacesForLegacy(
      [iface(JSONRPC_PATH, 'JSONRPC'), iface(REST_PATH, 'HTTP+JSON')],
      ['JSONRPC', 'HTTP+JSON'],
    ),
    provider: { organization: 'Manus Desktop', url: baseUrl },
    version,
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {
      [BEARER_SCHEME]: {
        scheme: {
          $case: 'httpAuthSecurityScheme',
          value: {
            description: 'The token `manus a2a` printed at start, or the one given with --token or MANUS_A2A_TOKEN.',
            scheme: 'bearer',
            bearerFormat: '',
          },
        },
      },
    },
    securityRequirements: [{ schemes: { [BEARER_SCHEME]: { list: [] } } }],
    defaultInputModes: TEXT_MODES,
    defaultOutputModes: TEXT_MODES,
    skills: MANUS_SKILLS,
    signatures: [],
  };
}
