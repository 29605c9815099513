/** Why a workspace path was refused: callers map these to their own codes (tool error, API error, dropped note). */
export type WorkspaceRefusal =
  /** `..` out, an absolute path elsewhere, or a symbolic link leading out */
  | 'outside'
  | 'missing'
  | 'folder'
  | 'not_folder'
  /** a FIFO, socket or device: never opened, a FIFO would block the reader */
  | 'special'
  | 'exists'
  /** a symbolic link where a folder or file must be: never followed here */
  | 'link'
  /** the entry was swapped (for a link, another file) between its check and its opening */
  | 'changed';

export class WorkspacePathError extends Error {
  override readonly name = 'WorkspacePathError';
  constructor(
    readonly reason: WorkspaceRefusal,
    message: string,
  ) {
    super(message);
  }
}
