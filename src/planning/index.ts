/**
 * affordance/planning: the planning tools, a ready-made section built on the
 * public API that keeps an agent's plan in the session.
 * @packageDocumentation
 */
export { AddStepParams } from './add-step-params.js';
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
