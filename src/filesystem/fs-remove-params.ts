import { IsBoolean, IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `fs_remove`. */
export class FsRemoveParams {
  @Describe('File or directory to remove, relative to the workspace root.')
  @IsString()
  path!: string;

  @Describe('Also remove a directory that is not empty, with everything in it.')
  @IsOptional()
  @IsBoolean()
  recursive?: boolean | null;
}
