import { IsIn, IsOptional, IsString } from 'class-validator';

import { Describe, type WriteMode } from '../index.js';

const modes: readonly WriteMode[] = ['create', 'overwrite', 'append'];

/** Arguments of `fs_write`. */
export class FsWriteParams {
  @Describe('File to write, relative to the workspace root; missing directories are created.')
  @IsString()
  path!: string;

  @Describe('The text to write.')
  @IsString()
  content!: string;

  @Describe(
    'create (the default) fails if the file exists; overwrite replaces it; append adds to its end.',
  )
  @IsOptional()
  @IsIn(modes)
  mode?: WriteMode | null;
}
