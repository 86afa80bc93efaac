import { IsIn, IsOptional, IsString } from 'class-validator';

import { Describe } from '../../index.js';

/** The kinds of file change an `apply_patch_call` asks for. */
export type ApplyPatchOperationType = 'create_file' | 'update_file' | 'delete_file';

/** What the model asks an {@link ApplyPatchTool} to do: the `operation` of an OpenAI `apply_patch_call`. */
export class ApplyPatchOperation {
  @Describe('create_file, update_file or delete_file')
  @IsIn(['create_file', 'update_file', 'delete_file'])
  type!: ApplyPatchOperationType;

  @Describe('Path of the file to change')
  @IsString()
  path!: string;

  @Describe('The change as a V4A diff (absent for delete_file)')
  @IsOptional()
  @IsString()
  diff?: string;
}
