// The programs the sandbox runs with `python3 -u -c`: real files under resources/sandbox/drivers (linted and tested
// there), bundled as text at build time, so no path has to be found at run time in a packaged app.
import documentExtract from '../../../../resources/sandbox/drivers/document_extract.py?raw';
import documentText from '../../../../resources/sandbox/drivers/document_text.py?raw';
import bashShell from '../../../../resources/sandbox/drivers/bash_shell.py?raw';
import pythonRepl from '../../../../resources/sandbox/drivers/python_repl.py?raw';
import workspaceLister from '../../../../resources/sandbox/drivers/workspace_lister.py?raw';
import workspaceUsage from '../../../../resources/sandbox/drivers/workspace_usage.py?raw';

/** the persistent Python interpreter (resources/sandbox/drivers/python_repl.py) */
export const PYTHON_REPL_SOURCE = pythonRepl;
/** the supervisor of the persistent bash (resources/sandbox/drivers/bash_shell.py) */
export const BASH_SHELL_SOURCE = bashShell;
/** the workspace lister kept running in the container (resources/sandbox/drivers/workspace_lister.py) */
export const WORKSPACE_LISTER_SOURCE = workspaceLister;
/** the workspace meter kept running in the container (resources/sandbox/drivers/workspace_usage.py) */
export const WORKSPACE_USAGE_SOURCE = workspaceUsage;
/** the document reader's supervisor, kept running in a reader container (resources/sandbox/drivers/document_text.py) */
export const DOCUMENT_TEXT_SOURCE = documentText;
/** what turns one document into text, run by the supervisor with limits (resources/sandbox/drivers/document_extract.py) */
export const DOCUMENT_EXTRACT_SOURCE = documentExtract;
