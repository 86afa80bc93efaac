import { IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `fs_list`. */
export class FsListParams {
  @Describe('Directory to list, relative to the workspace root; the root when left out.')
  @IsOptional()
  @IsString()
  path?: string | null;
}
