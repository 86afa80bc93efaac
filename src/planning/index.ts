/**
 * affordance/planning: ready-made tool sections built on the public API — the
 * planning tools (a plan kept in the session) and the filesystem tools (over
 * the `Filesystem` resource).
 * @packageDocumentation
 */
export { AddStepParams } from './add-step-params.js';
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
export { Plan, type PlanInit } from './plan.js';
export { PlanSetUp } from './plan-set-up.js';
export { PlanStatus } from './plan-status.js';
export { PlanStep, type PlanStepInit } from './plan-step.js';
export { MAX_PLAN_TEXT_LENGTH } from './plan-text.js';
export { PlanningStrategy, planningGuidance } from './planning-strategy.js';
export { PlanningToolsParams, type PlanningToolsParamsInit } from './planning-tools-params.js';
export { PlanningToolsSection } from './planning-tools-section.js';
export { SetupPlanParams } from './setup-plan-params.js';
export { StepStatus } from './step-status.js';
export { StepUpdated, type StepUpdatedInit } from './step-updated.js';
export { StepsAdded } from './steps-added.js';
export { UpdateStepParams } from './update-step-params.js';
export { NO_FILESYSTEM_MESSAGE } from './with-filesystem.js';
