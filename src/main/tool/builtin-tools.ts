import { askHumanTool } from './ask-human.js';
import { bashTool } from './bash.js';
import { browserUseTool } from './browser-use.js';
import { createChatCompletionTool } from './create-chat-completion.js';
import { pythonExecuteTool } from './python-execute.js';
import { readDocumentTool } from './read-document.js';
import { searchFilesTool } from './search-files.js';
import { strReplaceEditorTool } from './str-replace-editor.js';
import { terminateTool } from './terminate.js';
import { webSearchTool } from './web-search.js';
import type { AnyTool } from './tool.js';

/** Every built-in tool by name; agents pick theirs from here. */
export const builtinTools: Record<string, AnyTool> = Object.fromEntries(
  [
    pythonExecuteTool,
    bashTool,
    strReplaceEditorTool,
    readDocumentTool,
    searchFilesTool,
    browserUseTool,
    webSearchTool,
    askHumanTool,
    createChatCompletionTool,
    terminateTool,
  ].map((tool) => [tool.name, tool as AnyTool]),
);

/** The named tools that exist (features land one by one; a missing one is simply not offered). */
export function pickTools(names: readonly string[]): AnyTool[] {
  return names.flatMap((name) => (builtinTools[name] ? [builtinTools[name]] : []));
}
