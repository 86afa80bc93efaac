/**
 * Limits on what the filesystem tools send back to the model; anything cut
 * off is announced with a `[truncated: N more lines]` note. Bind an instance
 * in the container to change them:
 * `container.bind(FilesystemToolsLimits).toConstantValue(Object.assign(new FilesystemToolsLimits(), { maxReadLines: 100 }))`.
 */
export class FilesystemToolsLimits {
  /** Most lines one `fs_read` call returns. */
  maxReadLines = 400;
  /** Longest line `fs_read` and `fs_grep` show, in characters; the rest of a longer line is cut. */
  maxLineLength = 2000;
  /** Most entries `fs_list` shows. */
  maxListEntries = 200;
  /** Most paths `fs_glob` shows. */
  maxGlobResults = 200;
  /** Most matching lines `fs_grep` shows. */
  maxGrepMatches = 100;
  /**
   * Longest pattern `fs_grep` and `fs_glob` accept, in characters (the regular
   * expression and the glob alike); longer ones are refused before any search.
   */
  maxPatternLength = 1000;
}
