import type { ToolItem } from '../state/session-view.js';
import { stringField } from '../lib/tool-args.js';
import { CopyButton } from '../components/CopyButton.js';

/** Terminal-like: the prompt line, then what the command printed as it printed it. */
export function BashView({ item }: { item: ToolItem }) {
  const command = stringField(item.args, 'command') ?? '';
  const output = item.output ?? item.progress;
  return (
    <div className="terminal-window">
      <div className="terminal-bar">
        <span className="terminal-dot red" />
        <span className="terminal-dot yellow" />
        <span className="terminal-dot green" />
        <CopyButton text={() => `$ ${command}\n${output}`} />
      </div>
      <pre className="terminal">
        <span className="terminal-prompt">$ </span>
        {command}
        {'\n'}
        {output}
        {item.status === 'calling' ? <span className="terminal-cursor">▍</span> : null}
        {item.error ? <span className="terminal-error">{`\n${item.error}`}</span> : null}
      </pre>
    </div>
  );
}
