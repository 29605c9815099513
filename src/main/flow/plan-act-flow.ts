import { randomUUID } from 'node:crypto';
import type { FlowPhase } from '../../shared/events.js';
import { isLlmError } from '../llm/errors.js';
import { describeError } from './run-errors.js';
import type { NewPlanStep, Plan, PlanStep } from '../store/plan-store.js';
import type { StepReport } from '../../shared/step-report.js';
import { BaseFlow, withImageDescriptions, type AgentDescription, type FlowResult } from './base-flow.js';
import { imagesAmong } from './attached-images.js';
import { clipNote } from './clip-note.js';
import { executeStepPrompt } from './plan-act-prompts.js';
import { PlanActPlanner } from './plan-act-planner.js';
import {
  failedStep,
  goalUnreachableEnding,
  replanFailedEnding,
  replanLimitEnding,
  replannedNotice,
  stepLimitEnding,
  TIMEOUT_ENDING,
  type PlanActEnding,
} from './plan-act-endings.js';
import { checkAttachments } from './reported-attachments.js';
import { StepReportSchema, parseReply, planActStatus, type PlannedStep } from './plan-act-schemas.js';
import { planText } from './plan-text.js';
import { stepMessages } from './step-messages.js';
import { executorOfStep } from './step-tags.js';
import { filesChangedSince } from './workspace-changes.js';

interface StepRun {
  step: PlanStep;
  report: StepReport;
  /** why the step failed, when it did */
  error?: string;
}

/**
 * Plan-Act as the seed draws it: a Planner answers in JSON with a plan, each step runs on the agent its type names,
 * the Planner gets the next-step prompt after each step and rewrites what remains, a failed step goes back to it to
 * be replanned (within `planAct.maxReplans`), and the Planner's summary with the files produced ends the turn. Plans
 * and steps are stored, so an interrupted turn continues at its first unfinished step.
 */
export class PlanActFlow extends BaseFlow {
  private readonly planner = new PlanActPlanner(this.run.llm, (what, error) =>
    this.emitNotice('warning', 'planner_retry', `The planner's ${what} was not valid (${error}); asking again.`, {
      error,
    }),
  );
  private described: AgentDescription[] | undefined;

  async execute(input: string): Promise<FlowResult> {
    try {
      const result = await this.carryOut(input);
      this.emitPhase(result.status === 'finished' ? 'completed' : 'failed');
      return result;
    } catch (error) {
      this.emitPhase('failed');
      throw error;
    }
  }

  private emitPhase(phase: FlowPhase, planId?: string): void {
    this.run.emit({ type: 'phase', sessionId: this.sessionId, phase, ...(planId ? { planId } : {}) });
  }

  private async carryOut(input: string): Promise<FlowResult> {
    const latest = this.run.resuming ? this.latestPlan('plan_act') : undefined;
    if (latest?.status === 'completed' && latest.task === input) return this.alreadyDone(latest);
    const resumable = latest && latest.status !== 'completed' ? latest : undefined;
    let plan = resumable ?? (await this.createPlan(input));
    if (resumable) {
      const next = openStep(plan);
      if (next) {
        const text = `Continuing from step ${next.key}: ${next.text}`;
        this.emitNotice('info', 'flow_resumed', text, { step: next.key, description: next.text });
      } else this.emitNotice('info', 'flow_finishing', 'Finishing the plan.');
    }
    if (plan.steps.length === 0) return this.finishInfeasible(plan);
    const lastStep = plan.steps.at(-1);
    if (resumable && !openStep(plan) && lastStep?.status === 'blocked') {
      // the turn stopped at a failed step: continuing gives it to the planner again (within the same replan limit)
      const revised = await this.replan(plan.id, failedRun(lastStep));
      if ('ending' in revised) return this.finish(plan.id, revised.ending);
      plan = revised.plan;
    }
    for (let next = openStep(plan); next; next = openStep(plan)) {
      if (this.stopReason()) return this.finish(plan.id, TIMEOUT_ENDING);
      if (stepRuns(plan) >= this.options.stepLimit)
        return this.finish(plan.id, stepLimitEnding(this.options.stepLimit));
      let run: StepRun;
      try {
        run = await this.executeStep(plan, next);
      } catch (error) {
        if (this.stopReason()) return this.finish(plan.id, TIMEOUT_ENDING);
        throw error;
      }
      const revised =
        run.error === undefined ? await this.updateRemaining(plan.id, run) : await this.replan(plan.id, run);
      if ('ending' in revised) return this.finish(plan.id, revised.ending);
      plan = revised.plan;
    }
    return this.finish(plan.id);
  }

  /** The agents steps may run on, with what each is for (read once per turn). */
  private agentDescriptions(): AgentDescription[] {
    this.described ??= this.describeAgents();
    return this.described;
  }

  private async createPlan(task: string): Promise<Plan> {
    const earlier = this.plans.list(this.sessionId);
    let drafted;
    this.emitPhase('planning');
    try {
      const seen = await this.taskImages();
      drafted = await this.planner.createPlan(
        task,
        earlierWork(earlier),
        this.agentDescriptions(),
        seen,
        this.deadline,
      );
    } catch (error) {
      // a task too large for the model fails the run: one step would only fail later, less clearly
      if (isLlmError(error, 'context_length')) throw error;
      this.stopReason();
      const reason = describeError(error).message;
      this.emitNotice('warning', 'default_plan', `Planning failed (${reason}); using one step.`, { error: reason });
      drafted = {
        title: task.slice(0, 80),
        goal: task,
        language: 'en',
        message: '',
        steps: [{ id: '1', description: task, type: undefined }],
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
      steps: drafted.steps.map((step) => this.newStep(step)),
    });
    if (plan.message) this.say(plan.message, 'planner');
    this.emitPlan('created', plan);
    return plan;
  }

  /** A planned step as stored: the agent its type (or tag) names is kept with it, so the plan shows who runs it. */
  private newStep(step: PlannedStep): NewPlanStep {
    const agent = executorOfStep({ text: step.description, type: step.type }, this.options.agents, this.primary);
    return { key: step.id, text: step.description, agent };
  }

  private async executeStep(plan: Plan, step: PlanStep): Promise<StepRun> {
    const agentName = executorOfStep({ text: step.text, type: step.agent }, this.options.agents, this.primary);
    const running = this.plans.updateStep(this.sessionId, plan.id, step.index, {
      status: 'in_progress',
      agent: agentName,
      addRun: true,
    });
    this.emitPhase('executing', plan.id);
    this.emitStep('started', running, step.index, { agent: agentName });
    this.emitPlan('updated', running);
    const since = Date.now();
    const ref = { planId: plan.id, stepIndex: step.index };
    const messages = stepMessages(this.run.emit, ref);
    const agent = this.stepAgent(agentName, running, step.index, messages.emit);
    const prompt = executeStepPrompt({
      goal: plan.goal || plan.task,
      language: plan.language,
      step: { id: step.key, description: step.text },
      earlierResults: earlierResults(running, step.index),
    });
    let report: StepReport;
    let error: string | undefined;
    try {
      const seen = await this.taskImages();
      const outcome = await agent.run(withImageDescriptions(prompt, seen), {
        signal: this.deadline,
        images: seen.images,
      });
      const parsed = parseReply(outcome.text, StepReportSchema);
      report = parsed.ok
        ? parsed.value
        : { success: outcome.outcome === 'success', result: outcome.text, attachments: [] };
      if (!report.success) {
        error = parsed.ok ? report.result : `${agentName} stopped (${outcome.outcome}): ${outcome.text}`;
      }
    } catch (thrown) {
      if (this.deadline.aborted) {
        // cut off mid-step: pending again, so a resumed turn runs it again
        this.emitPlan('updated', this.plans.updateStep(this.sessionId, plan.id, step.index, { status: 'not_started' }));
        throw thrown;
      }
      report = { success: false, result: '', attachments: [] };
      error = `${agentName} failed: ${describeError(thrown).message}`;
    }
    if (error !== undefined && !error.trim()) error = 'The step failed without saying why.';
    const reported = this.checkedAttachments(report.attachments);
    const attachments = [...new Set([...reported, ...filesChangedSince(this.run.session.workspace, since)])];
    const settled = this.plans.updateStep(this.sessionId, plan.id, step.index, {
      status: error === undefined ? 'completed' : 'blocked',
      result: report.result,
      notes: report.result || (error ?? ''),
      success: error === undefined,
      attachments,
      ...(error !== undefined ? { error } : {}),
    });
    this.showResult(report, error, attachments, agentName, ref, messages.reportMessageId());
    this.emitStep(error === undefined ? 'completed' : 'failed', settled, step.index, {
      agent: agentName,
      result: report.result,
      attachments,
      ...(error !== undefined ? { error } : {}),
    });
    this.emitPlan('updated', settled);
    return { step: settled.steps[step.index], report: { ...report, attachments }, error };
  }

  /**
   * The step's result as a message of the step, with its files: in place of the executor's JSON report when it gave
   * one; otherwise its own last message stands, and only the files (or why it failed) are added.
   */
  private showResult(
    report: StepReport,
    error: string | undefined,
    attachments: string[],
    agent: string,
    step: { planId: string; stepIndex: number },
    reportMessageId: string | undefined,
  ): void {
    const images = imagesAmong(attachments, this.run.session.workspace);
    if (reportMessageId) {
      const text = report.result || error || '';
      this.say(text, agent, images, { messageId: reportMessageId, attachments, step });
    } else if (attachments.length > 0 || (error !== undefined && !report.result)) {
      this.say(report.result ? '' : (error ?? ''), agent, images, { attachments, step });
    }
  }

  /** After a completed step the Planner gets the next-step prompt and rewrites the steps still to do. */
  private async updateRemaining(planId: string, run: StepRun): Promise<{ plan: Plan }> {
    const plan = this.plans.require(this.sessionId, planId);
    if (!plan.steps.some((step) => step.status === 'not_started')) return { plan };
    this.emitPhase('updating', planId);
    try {
      return {
        plan: this.replaceRemaining(plan, await this.planner.nextSteps(this.nextStepInput(plan, run), this.deadline)),
      };
    } catch (error) {
      if (this.stopReason()) return { plan };
      const reason = describeError(error).message;
      this.emitNotice('warning', 'replan_failed', `The plan was kept as it was: ${reason}`, { error: reason });
      return { plan };
    }
  }

  /** A failed step goes back to the Planner with its error; the plan it answers replaces what remained. */
  private async replan(planId: string, run: StepRun): Promise<{ plan: Plan } | { ending: PlanActEnding }> {
    const plan = this.plans.require(this.sessionId, planId);
    const failed = failedStep(run.step.key, run.step.text, clipNote(run.error ?? ''));
    const replansSoFar = plan.steps.filter((step) => step.status === 'blocked').length - 1;
    if (replansSoFar >= this.options.maxReplans) return { ending: replanLimitEnding(failed, this.options.maxReplans) };
    let steps: PlannedStep[];
    this.emitPhase('updating', planId);
    try {
      steps = await this.planner.nextSteps(this.nextStepInput(plan, run), this.deadline);
    } catch (error) {
      if (this.stopReason()) return { ending: TIMEOUT_ENDING };
      return { ending: replanFailedEnding(failed, describeError(error).message) };
    }
    if (steps.length === 0) return { ending: goalUnreachableEnding(failed) };
    const updated = this.replaceRemaining(plan, steps);
    const notice = replannedNotice(failed, replansSoFar + 1, this.options.maxReplans, steps.length);
    this.emitNotice('warning', 'replanned', notice.text, notice.params);
    return { plan: updated };
  }

  private nextStepInput(plan: Plan, run: StepRun) {
    return {
      planStatus: planText(plan),
      results: stepResults(plan),
      justFinished: JSON.stringify({
        id: run.step.key,
        description: run.step.text,
        agent: run.step.agent,
        success: run.error === undefined,
        result: clipNote(run.report.result),
        ...(run.error !== undefined ? { error: clipNote(run.error) } : {}),
        ...(run.report.attachments.length ? { attachments: run.report.attachments } : {}),
      }),
      remaining: plan.steps
        .filter((step) => step.status === 'not_started')
        .map((step) => `- ${step.key}: ${step.text}${step.agent ? ` (type: ${step.agent})` : ''}`)
        .join('\n'),
      failed: run.error !== undefined,
      agents: this.agentDescriptions(),
    };
  }

  /** Finished steps stay as they are; the Planner's steps replace the rest. */
  private replaceRemaining(plan: Plan, steps: PlannedStep[]): Plan {
    const finished: NewPlanStep[] = plan.steps
      .filter((step) => step.status === 'completed' || step.status === 'blocked')
      .map(({ index: _index, ...step }) => step);
    const updated = this.plans.replaceSteps(this.sessionId, plan.id, [
      ...finished,
      ...steps.map((step) => this.newStep(step)),
    ]);
    this.emitPlan('updated', updated);
    return updated;
  }

  /** The reported files that are really in the workspace; the others are dropped with a note, never opened. */
  private checkedAttachments(reported: readonly string[]): string[] {
    const { files, refused } = checkAttachments(this.run.session.workspace, reported);
    if (refused.length) {
      const list = refused.join('; ');
      this.emitNotice('warning', 'attachments_refused', `Attachments left out: ${list}`, { files: list });
    }
    return files;
  }

  private finishInfeasible(plan: Plan): FlowResult {
    const text = plan.message || 'The planner found no steps to take for this task.';
    const finished = this.plans.updatePlan(this.sessionId, plan.id, { status: 'completed', summary: text });
    this.emitPlan('completed', finished);
    return { status: 'finished', result: text };
  }

  /** The Planner's summary ends the turn; a run that stopped early says why first. */
  private async finish(planId: string, ending?: PlanActEnding): Promise<FlowResult> {
    if (ending) this.emitNotice('warning', ...ending.notice);
    const plan = this.plans.require(this.sessionId, planId);
    const attachments = [...new Set(plan.steps.flatMap((step) => step.attachments))];
    let message: string;
    let shown = attachments;
    // the steps' messages already showed their pictures: the summary shows those it names itself
    let pictured = attachments;
    try {
      const summary = await this.planner.summarize(planJson(plan, ending?.text), plan.language, this.run.signal);
      message = summary.message;
      pictured = this.checkedAttachments(summary.attachments);
      shown = [...new Set([...pictured, ...attachments])];
    } catch (error) {
      if (this.run.signal.aborted) throw error;
      const reason = describeError(error).message;
      this.emitNotice('info', 'summary_report', `The summary failed (${reason}); showing the results.`, {
        reason: 'failed',
        error: reason,
      });
      message = plan.steps
        .map((step) => `${step.key}. ${step.text}: ${step.result || step.error || step.status}`)
        .join('\n');
    }
    const body = ending ? `${ending.text}\n\n${message}` : message;
    const text = shown.length ? `${body}\n\nFiles:\n${shown.map((file) => `- ${file}`).join('\n')}` : body;
    const finished = this.plans.updatePlan(this.sessionId, planId, {
      status: ending ? 'stopped' : 'completed',
      summary: text,
    });
    this.emitPlan(ending ? 'updated' : 'completed', finished);
    this.say(text, 'planner', imagesAmong(pictured, this.run.session.workspace));
    return { status: ending ? 'failed' : 'finished', result: text };
  }
}

/** A stored failed step as the run that failed it. */
function failedRun(step: PlanStep): StepRun {
  return {
    step,
    report: { success: false, result: step.result ?? '', attachments: step.attachments },
    error: step.error || 'The step failed.',
  };
}

function openStep(plan: Plan): PlanStep | undefined {
  return plan.steps.find((step) => step.status === 'not_started' || step.status === 'in_progress');
}

/** Step runs the plan has had, over every turn: its bound is `planAct.maxStepsPerPlan`. */
function stepRuns(plan: Plan): number {
  return plan.steps.reduce((runs, step) => runs + step.runs, 0);
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
        ...(step.agent ? { type: step.agent } : {}),
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

/** What each finished step gave, in plan order: the results part of the next-step prompt. */
function stepResults(plan: Plan): string {
  return plan.steps
    .filter((step) => step.status === 'completed' || step.status === 'blocked')
    .map((step) => {
      const outcome =
        step.status === 'completed' ? clipNote(step.result ?? '') : `FAILED: ${clipNote(step.error ?? '')}`;
      const files = step.attachments.length ? `\n  files: ${step.attachments.join(', ')}` : '';
      return `- ${step.key} (${step.text}): ${outcome}${files}`;
    })
    .join('\n');
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
