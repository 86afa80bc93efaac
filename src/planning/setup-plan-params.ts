import { IsArray, IsOptional, IsString } from 'class-validator';

import { Describe } from '../index.js';

/** Arguments of `planning_setup_plan`. */
export class SetupPlanParams {
  @Describe('What the plan should achieve, in one sentence (at most 500 characters).')
  @IsString()
  objective!: string;

  @Describe('Titles of the first steps, in order; leave empty to add steps later.')
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  initialSteps?: string[] | null;
}
