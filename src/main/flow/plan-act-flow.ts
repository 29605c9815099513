import { randomUUID } from 'node:crypto';
import { isLlmError } from '../llm/errors.js';
import { describeError } from './run-errors.js';
import type { NewPlanStep, Plan, PlanStep } from '../store/plan-store.js';
import { BaseFlow, type FlowResult } from './base-flow.js';
import { attachedImages } from './attached-images.js';
import { clipNote } from './clip-note.js';
import { executeStepPrompt } from './plan-act-prompts.js';
import { PlanActPlanner } from './plan-act-planner.js';
import { checkAttachments } from './reported-attachments.js';
import { parseReply, planActStatus, StepReportSchema, type StepReport } from './plan-act-schemas.js';
import { filesChangedSince } from './workspace-changes.js';

const TIMEOUT_ENDING = 'The time limit was reached before every step was done.';

interface StepRun {
  index: number;
  report: StepReport;
}

/**
 * Plan-Act: a Planner answers in JSON with a plan, an Execution agent carries out each step, the Planner rewrites the
 * remaining steps after each one, and a summary with the files produced ends the turn. Plans and steps are stored,
 * so an interrupted turn continues at its first unfinished step.
 */
export class PlanActFlow extends BaseFlow {
  private readonly planner = new PlanActPlanner(this.run.llm, (what, error) =>
    this.emitNotice('planner_retry', `The planner's ${what} was not valid (${error}); asking again.`, 'warning'),
  );

  async execute(input: string): Promise<FlowResult> {
    const latest = this.run.resuming ? this.latestPlan('plan_act') : undefined;
    if (latest?.status === 'completed' && latest.task === input) return this.alreadyDone(latest);
    const resumable = latest && latest.status !== 'completed' ? latest : undefined;
    let plan = resumable ?? (await this.createPlan(input));
    if (resumable) {
      const next = openStep(plan);
      this.emitNotice(
        'flow_resumed',
        next ? `Continuing from step ${next.key}: ${next.text}` : 'Finishing the plan.',
        'info',
        next ? { step: next.key, text: next.text } : { variant: 'finishing' },
      );
    }
    if (plan.steps.length === 0) return this.finishInfeasible(plan);
    let executions = 0;
    for (let next = openStep(plan); next; next = openStep(plan)) {
      if (this.stopReason()) return this.finish(plan.id, TIMEOUT_ENDING);
      if (executions++ >= this.options.stepLimit) {
        return this.finish(plan.id, `The flow reached its limit of ${this.options.stepLimit} step runs.`);
      }
      let run: StepRun;
      try {
        run = await this.executeStep(plan, next);
      } catch (error) {
        if (this.stopReason()) return this.finish(plan.id, TIMEOUT_ENDING);
        throw error;
      }
      plan = await this.updateRemaining(plan.id, run);
    }
    return this.finish(plan.id, '');
  }

  private async createPlan(task: string): Promise<Plan> {
    const earlier = this.plans.list(this.sessionId);
    let drafted;
    try {
      drafted = await this.planner.createPlan(task, earlierWork(earlier), this.deadline);
    } catch (error) {
      // a task too large for the model fails the run: one step would only fail later, less clearly
      if (isLlmError(error, 'context_length')) throw error;
      this.stopReason();
      this.emitNotice('default_plan', `Planning failed (${describeError(error).message}); using one step.`, 'warning');
      drafted = {
        title: task.slice(0, 80),
        goal: task,
        language: 'en',
        message: '',
        steps: [{ id: '1', description: task }],
      };
    }
    const plan = this.plans.create({
      sessionId: this.sessionId,
      id: `plan_${Date.now()}_${randomUUID().slice(0, 8)}`,
      kind: 'plan_act',
      title: drafted.title,
      task,
      goal: drafted.goal,
      language: drafted.language,
      message: drafted.message,
      agents: this.options.agents,
      parallel: 1,
      steps: drafted.steps.map((step) => ({ key: step.id, text: step.description })),
    });
    this.nameSession(plan.title, earlier.length === 0);
    if (plan.message) this.say(plan.message, 'planner');
    this.emitPlan('created', plan);
    return plan;
  }

  private async executeStep(plan: Plan, step: PlanStep): Promise<StepRun> {
    const agentName = this.primary;
    const running = this.plans.updateStep(this.sessionId, plan.id, step.index, {
      status: 'in_progress',
      agent: agentName,
      addRun: true,
    });
    this.emitStep('started', running, step.index, { agent: agentName });
    this.emitPlan('updated', running);
    const since = Date.now();
    const agent = this.stepAgent(agentName, running, step.index);
    const prompt = executeStepPrompt({
      goal: plan.goal || plan.task,
      language: plan.language,
      step: { id: step.key ?? String(step.index), description: step.text },
      earlierResults: earlierResults(running, step.index),
    });
    let report: StepReport;
    try {
      const outcome = await agent.run(prompt, { signal: this.deadline });
      const parsed = parseReply(outcome.text, StepReportSchema);
      report = parsed.ok
        ? parsed.value
        : { success: outcome.outcome === 'success', result: outcome.text, attachments: [] };
    } catch (error) {
      if (this.deadline.aborted) {
        // cut off mid-step: pending again, so a resumed turn runs it again
        this.emitPlan('updated', this.plans.updateStep(this.sessionId, plan.id, step.index, { status: 'not_started' }));
        throw error;
      }
      report = { success: false, result: '', attachments: [] };
      this.plans.updateStep(this.sessionId, plan.id, step.index, { error: describeError(error).message });
    }
    const reported = this.checkedAttachments(report.attachments);
    const attachments = [...new Set([...reported, ...filesChangedSince(this.run.session.workspace, since)])];
    const settled = this.plans.updateStep(this.sessionId, plan.id, step.index, {
      status: report.success ? 'completed' : 'blocked',
      result: report.result,
      notes: report.result,
      success: report.success,
      attachments,
      ...(report.success || report.result ? {} : { error: 'The step failed without a result.' }),
    });
    this.emitStep(report.success ? 'completed' : 'failed', settled, step.index, {
      agent: agentName,
      result: report.result,
    });
    this.emitPlan('updated', settled);
    return { index: step.index, report: { ...report, attachments } };
  }

  /** The Planner rewrites the steps still to do; finished steps stay as they are. */
  private async updateRemaining(planId: string, run: StepRun): Promise<Plan> {
    const plan = this.plans.require(this.sessionId, planId);
    if (!plan.steps.some((step) => step.status === 'not_started')) return plan;
    let steps;
    try {
      steps = await this.planner.updateSteps(
        planJson(plan),
        JSON.stringify({ id: plan.steps[run.index].key, ...run.report }),
        this.deadline,
      );
    } catch (error) {
      if (this.stopReason()) return plan;
      this.emitNotice('replan_failed', `The plan was kept as it was: ${describeError(error).message}`, 'warning');
      return plan;
    }
    const finished: NewPlanStep[] = plan.steps
      .filter((step) => step.status === 'completed' || step.status === 'blocked')
      .map(({ index: _index, ...step }) => step);
    const updated = this.plans.replaceSteps(this.sessionId, planId, [
      ...finished,
      ...steps.map((step) => ({ key: step.id, text: step.description })),
    ]);
    this.emitPlan('updated', updated);
    return updated;
  }

  /** The reported files that are really in the workspace; the others are dropped with a note, never opened. */
  private checkedAttachments(reported: readonly string[]): string[] {
    const { files, refused } = checkAttachments(this.run.session.workspace, reported);
    if (refused.length) {
      this.emitNotice('attachments_refused', `Attachments left out: ${refused.join('; ')}`, 'warning');
    }
    return files;
  }

  private finishInfeasible(plan: Plan): FlowResult {
    const text = plan.message || 'The planner found no steps to take for this task.';
    const finished = this.plans.updatePlan(this.sessionId, plan.id, { status: 'completed', summary: text });
    this.emitPlan('completed', finished);
    return { status: 'finished', result: text };
  }

  private async finish(planId: string, ending: string): Promise<FlowResult> {
    const plan = this.plans.require(this.sessionId, planId);
    const done = plan.steps.every((step) => step.status === 'completed' || step.status === 'blocked');
    const failed = plan.steps.some((step) => step.status === 'blocked');
    const attachments = [...new Set(plan.steps.flatMap((step) => step.attachments))];
    let message: string;
    let shown = attachments;
    try {
      const summary = await this.planner.summarize(planJson(plan, ending), plan.language, this.run.signal);
      message = summary.message;
      shown = [...new Set([...this.checkedAttachments(summary.attachments), ...attachments])];
    } catch (error) {
      if (this.run.signal.aborted) throw error;
      this.emitNotice('summary_report', `The summary failed (${describeError(error).message}); showing the results.`);
      message = [ending, ...plan.steps.map((step) => `${step.key}. ${step.text}: ${step.result ?? step.status}`)]
        .filter(Boolean)
        .join('\n');
    }
    const text = shown.length ? `${message}\n\nFiles:\n${shown.map((file) => `- ${file}`).join('\n')}` : message;
    const finished = this.plans.updatePlan(this.sessionId, planId, {
      status: done ? 'completed' : 'stopped',
      summary: text,
    });
    this.emitPlan(done ? 'completed' : 'updated', finished);
    this.say(text, 'planner', attachedImages(finished, this.run.session.workspace));
    return { status: done && !failed ? 'finished' : 'failed', result: text };
  }
}

function openStep(plan: Plan): PlanStep | undefined {
  return plan.steps.find((step) => step.status === 'not_started' || step.status === 'in_progress');
}

/** The plan as the Planner reads it, in its own vocabulary. */
function planJson(plan: Plan, ending = ''): string {
  return JSON.stringify(
    {
      title: plan.title,
      goal: plan.goal,
      language: plan.language,
      steps: plan.steps.map((step) => ({
        id: step.key,
        description: step.text,
        status: planActStatus(step.status),
        ...(step.result !== undefined ? { result: clipNote(step.result) } : {}),
        ...(step.success !== undefined ? { success: step.success } : {}),
        ...(step.error ? { error: step.error } : {}),
        ...(step.attachments.length ? { attachments: step.attachments } : {}),
      })),
      ...(ending ? { note: ending } : {}),
    },
    null,
    2,
  );
}

function earlierResults(plan: Plan, index: number): string {
  return plan.steps
    .filter((step) => step.index < index && step.result)
    .map((step) => `Step ${step.key} (${step.text}): ${clipNote(step.result ?? '')}`)
    .join('\n\n');
}

function earlierWork(plans: Plan[]): string | undefined {
  const withSummary = plans.filter((plan) => plan.summary).slice(-3);
  if (withSummary.length === 0) return undefined;
  return withSummary.map((plan) => `Task: ${plan.task}\nResult: ${clipNote(plan.summary ?? '')}`).join('\n\n');
}
