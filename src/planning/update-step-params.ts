import { IsIn, IsInt, IsOptional, IsString, Min } from 'class-validator';

import { Describe } from '../index.js';
import { StepStatus } from './step-status.js';

/** Arguments of `planning_update_step`: the step's id and a new title, a new status, or both. */
export class UpdateStepParams {
  @Describe('Id of the step to change, as shown by the plan (1, 2, 3...).')
  @IsInt()
  @Min(1)
  stepId!: number;

  @Describe('New title for the step; leave out to keep the current one.')
  @IsOptional()
  @IsString()
  title?: string | null;

  @Describe('New status: pending, in_progress or done; leave out to keep the current one.')
  @IsOptional()
  @IsIn(Object.values(StepStatus))
  status?: StepStatus | null;
}
