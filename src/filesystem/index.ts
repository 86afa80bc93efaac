/**
 * affordance/filesystem: the filesystem tools, a ready-made section built on
 * the public API over the evaluation's `Filesystem` resource.
 * @packageDocumentation
 */
export { FilesystemToolsLimits } from './filesystem-tools-limits.js';
export { FilesystemToolsSection } from './filesystem-tools-section.js';
export { FsEdit } from './fs-edit.js';
export { FsEditParams } from './fs-edit-params.js';
export { FsGlobParams } from './fs-glob-params.js';
export { FsGrepParams } from './fs-grep-params.js';
export { FsListParams } from './fs-list-params.js';
export { FsReadParams } from './fs-read-params.js';
export { FsRemoveParams } from './fs-remove-params.js';
export { FsWriteParams } from './fs-write-params.js';
export { ReadBeforeWritePolicy } from './read-before-write-policy.js';
export { NO_FILESYSTEM_MESSAGE } from './with-filesystem.js';
