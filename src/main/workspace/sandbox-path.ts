/** Where the workspace appears inside the sandbox: the path the model writes, which host file calls translate. */
export const CONTAINER_WORKSPACE = '/workspace';
