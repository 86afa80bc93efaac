import { PlanningStrategy, planningGuidance } from './planning-strategy.js';

/** Fields of {@link PlanningToolsParams}. */
export interface PlanningToolsParamsInit {
  /** How the model should work; `REACT` by default. */
  readonly strategy?: PlanningStrategy;
}

/**
 * The planning section's params: the strategy and the guidance paragraph it
 * renders. Frozen, so the two always agree. Pass an instance to `evaluate` or
 * `render` to change the strategy:
 * `params: [new PlanningToolsParams({ strategy: PlanningStrategy.PLAN_ACT_REFLECT })]`.
 */
export class PlanningToolsParams {
  /** The strategy in force. */
  readonly strategy: PlanningStrategy;
  /** The strategy's paragraph, filled into the section template. */
  readonly strategyGuidance: string;

  constructor(init: PlanningToolsParamsInit = {}) {
    this.strategy = init.strategy ?? PlanningStrategy.REACT;
    this.strategyGuidance = planningGuidance(this.strategy);
    Object.freeze(this);
  }
}
