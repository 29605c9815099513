import { randomUUID } from 'node:crypto';
import { isLlmError } from '../llm/errors.js';
import type { ChatMessage } from '../../shared/chat-message.js';
import { describeError } from './run-errors.js';
import type { Plan } from '../store/plan-store.js';
import { toolSpec } from '../tool/tool-collection.js';
import {
  executePlanning,
  PLANNING_TOOL_NAME,
  PlanningParameters,
  planningTool,
  stepsFromArguments,
} from './planning-tool.js';
import { BaseFlow, withImageDescriptions, withTaskImages, type FlowResult, type FlowStop } from './base-flow.js';
import type { NoticeArgs } from '../../shared/notice-codes.js';
import { summarizePlan, completedResults } from './flow-summary.js';
import {
  DEFAULT_PLAN_STEPS,
  initialPlanPrompt,
  PLANNING_SYSTEM_PROMPT,
  revisionPrompt,
  stepPrompt,
} from './flow-prompts.js';
import { attachedImages } from './attached-images.js';
import { clipNote } from './clip-note.js';
import { planText } from './plan-text.js';
import { filesChangedSince } from './workspace-changes.js';
import { executorFor } from './step-tags.js';
import { hasOpenSteps, prerequisitesOf, runnableSteps } from './step-selection.js';

/** how much of earlier turns' work a new plan sees */
const EARLIER_PLANS = 3;
const TITLE_LIMIT = 80;

interface StepOutcome {
  index: number;
  ok: boolean;
  text: string;
}

type StepEnd = { key: string; outcome: StepOutcome } | { key: string; error: unknown };

/**
 * Plan-and-execute: the model writes a plan with the planning tool, agents carry out its steps one by one (or
 * independent ones side by side), the planner revises the rest after each step, and a summary closes the turn.
 * The plan lives in SQLite, so a turn cut off by a crash or a cancel continues where it stopped.
 */
export class PlanningFlow extends BaseFlow {
  async execute(input: string): Promise<FlowResult> {
    const latest = this.run.resuming ? this.latestPlan('planning') : undefined;
    if (latest?.status === 'completed' && latest.task === input) return this.alreadyDone(latest);
    const plan = latest && latest.status !== 'completed' ? this.reopen(latest) : await this.createInitialPlan(input);
    const stop = await this.executePlan(plan.id);
    return this.finish(plan.id, stop);
  }

  /** Continuing: blocked steps get another try, a step cut off mid-run is run again, completed ones stay. */
  private reopen(plan: Plan): Plan {
    for (const step of plan.steps) {
      if (step.status === 'blocked')
        this.plans.updateStep(this.sessionId, plan.id, step.index, { status: 'not_started' });
    }
    const reopened = this.plans.updatePlan(this.sessionId, plan.id, { status: 'active' });
    const next = reopened.steps.find((step) => step.status !== 'completed');
    if (next) {
      const text = `Continuing plan "${plan.title}" from step ${next.index}: ${next.text}`;
      this.emitNotice('info', 'flow_resumed', text, { step: String(next.index), description: next.text });
    } else this.emitNotice('info', 'flow_finishing', `Finishing plan "${plan.title}".`);
    this.emitPlan('updated', reopened);
    return reopened;
  }

  private async createInitialPlan(task: string): Promise<Plan> {
    const earlier = this.plans.list(this.sessionId);
    const messages: ChatMessage[] = [
      { role: 'system', content: PLANNING_SYSTEM_PROMPT },
      withTaskImages(
        initialPlanPrompt({
          task,
          agents: this.options.agents.length > 1 ? this.describeAgents() : [],
          parallel: this.options.parallel,
          earlierWork: earlierWork(earlier),
        }),
        await this.taskImages(),
      ),
    ];
    let drafted: { title: string; steps: string[]; dependencies?: number[][] } | undefined;
    let failure = '';
    try {
      const reply = await this.run.llm.askTool(messages, {
        tools: [toolSpec(planningTool(this.plans, this.knownAgents))],
        toolChoice: 'required',
        signal: this.deadline,
      });
      drafted = draftFromCalls(reply.toolCalls, firstLine(task));
      if (!drafted) failure = 'the planner did not create a plan with the planning tool';
    } catch (error) {
      // a task too large for the model fails the run: a default plan would go on without it
      if (isLlmError(error, 'context_length')) throw error;
      this.stopReason();
      failure = describeError(error).message;
    }
    if (!drafted) {
      this.emitNotice('warning', 'default_plan', `Planning failed (${failure}); using a default plan.`, {
        error: failure,
      });
      drafted = { title: `Plan for: ${firstLine(task)}`, steps: DEFAULT_PLAN_STEPS };
    }
    const plan = this.plans.create({
      sessionId: this.sessionId,
      id: `plan_${Date.now()}_${randomUUID().slice(0, 8)}`,
      kind: 'planning',
      title: drafted.title,
      task,
      agents: this.options.agents,
      parallel: this.options.parallel,
      steps: stepsFromArguments(drafted.steps, drafted.dependencies, this.knownAgents),
    });
    this.emitPlan('created', plan);
    return plan;
  }

  /**
   * Runs steps until none can run, the step limit or the clock says stop, or the person cancels. Up to `parallel`
   * ready steps run at once; each finished step goes to the planner while the others keep running.
   */
  private async executePlan(planId: string): Promise<FlowStop | undefined> {
    const running = new Map<string, Promise<StepEnd>>();
    let executions = 0;
    let limitReached = false;
    for (;;) {
      if (!this.deadline.aborted) {
        const plan = this.plans.require(this.sessionId, planId);
        const ready = runnableSteps(plan.steps, plan.steps.length).filter(
          (index) => !running.has(plan.steps[index].key),
        );
        for (const index of ready) {
          if (running.size >= this.options.parallel) break;
          if (executions >= this.options.stepLimit) {
            limitReached = true;
            break;
          }
          executions++;
          const key = plan.steps[index].key;
          running.set(key, this.startStep(plan, index));
        }
      }
      if (running.size === 0) return this.stopReason() ?? (limitReached ? 'step_limit' : undefined);
      const end = await Promise.race(running.values());
      running.delete(end.key);
      if ('error' in end) {
        // the others were cut off by the same signal, or must not be left running after a failure
        await Promise.all(running.values());
        if (this.stopReason()) return 'timeout';
        throw end.error;
      }
      await this.revise(planId, [end.outcome]);
    }
  }

  /** A step's run that never rejects, so that steps running side by side can be awaited one by one. */
  private startStep(plan: Plan, index: number): Promise<StepEnd> {
    const key = plan.steps[index].key;
    return this.executeStep(plan, index).then(
      (outcome) => ({ key, outcome }),
      (error: unknown) => ({ key, error }),
    );
  }

  private async executeStep(before: Plan, index: number): Promise<StepOutcome> {
    const planId = before.id;
    const step = before.steps[index];
    const agentName = executorFor(step.text, this.options.agents, this.primary);
    const plan = this.plans.updateStepByKey(this.sessionId, planId, step.key, {
      status: 'in_progress',
      agent: agentName,
      addRun: true,
    });
    this.emitStep('started', plan, index, { agent: agentName });
    this.emitPlan('updated', plan);
    const agent = this.stepAgent(agentName, plan, index);
    const prompt = stepPrompt({
      planText: planText(plan),
      index,
      text: step.text,
      earlierNotes: earlierNotes(plan, index),
    });
    const settle = { planId, key: step.key, agent: agentName, since: Date.now() };
    try {
      const seen = await this.taskImages();
      const outcome = await agent.run(withImageDescriptions(prompt, seen), {
        signal: this.deadline,
        images: seen.images,
      });
      if (outcome.outcome === 'success') return this.settleStep({ ...settle, ok: true, text: outcome.text });
      return this.settleStep({
        ...settle,
        ok: false,
        text: `${agentName} stopped (${outcome.outcome}): ${outcome.text}`,
      });
    } catch (error) {
      if (this.deadline.aborted) {
        // cut off mid-step: the step is not done, and runs again when the flow continues
        this.emitPlan(
          'updated',
          this.plans.updateStepByKey(this.sessionId, planId, step.key, { status: 'not_started' }),
        );
        throw error;
      }
      return this.settleStep({
        ...settle,
        ok: false,
        text: `${agentName} failed: ${describeError(error).message}`,
        crashed: true,
      });
    }
  }

  /** Records how a step ended, with the workspace files written while it ran. */
  private settleStep(settled: {
    planId: string;
    key: string;
    agent: string;
    since: number;
    ok: boolean;
    text: string;
    crashed?: boolean;
  }): StepOutcome {
    const { planId, key, agent, ok, text } = settled;
    // the planner may have moved the step while it ran (steps side by side): it is found by its key
    const plan = this.plans.updateStepByKey(this.sessionId, planId, key, {
      status: ok ? 'completed' : 'blocked',
      notes: text,
      attachments: filesChangedSince(this.run.session.workspace, settled.since),
      ...(ok ? { result: text, success: true } : { error: text, success: false }),
    });
    const index = plan.steps.findIndex((step) => step.key === key);
    this.emitStep(ok ? 'completed' : settled.crashed ? 'failed' : 'blocked', plan, index, { agent, result: text });
    this.emitPlan('updated', plan);
    return { index, ok, text };
  }

  /** The planner looks at what just happened and may change the steps that are not completed. */
  private async revise(planId: string, outcomes: StepOutcome[]): Promise<void> {
    const plan = this.plans.require(this.sessionId, planId);
    const hasBlocked = outcomes.some((outcome) => !outcome.ok);
    if (!hasBlocked && !hasOpenSteps(plan.steps)) return;
    const report = [...outcomes]
      .sort((a, b) => a.index - b.index)
      .map((o) => `Step ${o.index} ${o.ok ? 'completed' : 'is blocked'}: ${clipNote(o.text)}`)
      .join('\n');
    let calls;
    try {
      const reply = await this.run.llm.askTool(
        [
          { role: 'system', content: PLANNING_SYSTEM_PROMPT },
          { role: 'user', content: revisionPrompt({ planText: planText(plan), report, hasBlocked }) },
        ],
        { tools: [toolSpec(planningTool(this.plans, this.knownAgents))], toolChoice: 'auto', signal: this.deadline },
      );
      calls = reply.toolCalls.filter((call) => call.name === PLANNING_TOOL_NAME);
    } catch (error) {
      if (this.stopReason()) return;
      const reason = describeError(error).message;
      this.emitNotice('warning', 'replan_failed', `The planner could not revise the plan: ${reason}`, {
        error: reason,
      });
      return;
    }
    let changed = false;
    for (const call of calls) {
      const args = parseJson(call.arguments);
      const parsed = PlanningParameters.safeParse(args);
      if (!parsed.success || (parsed.data.command !== 'update' && parsed.data.command !== 'mark_step')) continue;
      const result = executePlanning(this.plans, this.sessionId, { ...parsed.data, plan_id: planId }, this.knownAgents);
      if (result.error) this.emitNotice('warning', 'replan_refused', result.error, { error: result.error });
      else changed = true;
    }
    if (changed) this.emitPlan('updated', this.plans.require(this.sessionId, planId));
  }

  /** The notice that the flow's own limit stopped it, which also ends its summary. */
  private stopNotice(stop: FlowStop | undefined): NoticeArgs<'flow_step_limit' | 'flow_timeout'> | undefined {
    if (stop === 'step_limit') {
      const limit = this.options.stepLimit;
      return [
        'flow_step_limit',
        `The flow stopped: it reached its limit of ${limit} step runs (setting planning.maxStepRuns); the steps left were not run.`,
        { limit },
      ];
    }
    if (stop !== 'timeout') return undefined;
    const minutes = this.options.timeoutMs / 60_000;
    return [
      'flow_timeout',
      `The flow stopped: its time limit of ${minutes} minutes (setting planning.timeoutMinutes) was reached before every step was done.`,
      { minutes },
    ];
  }

  private async finish(planId: string, stop: FlowStop | undefined): Promise<FlowResult> {
    const plan = this.plans.require(this.sessionId, planId);
    const allDone = plan.steps.every((step) => step.status === 'completed');
    const stopped = allDone ? undefined : this.stopNotice(stop);
    if (stopped) this.emitNotice('warning', ...stopped);
    const ending = allDone
      ? 'All steps are completed.'
      : (stopped?.[1] ?? 'The flow stopped: some steps are blocked and the planner did not find a way around them.');
    const summary = await summarizePlan({
      run: this.run,
      plan,
      ending,
      primary: this.primary,
      onFallback: (...notice) => this.emitNotice('warning', ...notice),
    });
    const finished = this.plans.updatePlan(this.sessionId, planId, {
      status: allDone ? 'completed' : 'stopped',
      summary,
    });
    this.emitPlan(allDone ? 'completed' : 'updated', finished);
    this.say(summary, 'planner', attachedImages(finished, this.run.session.workspace));
    return { status: allDone ? 'finished' : 'failed', result: summary };
  }
}

function draftFromCalls(
  calls: { name: string; arguments: string }[],
  /** the plan's title when the planner gave none */
  untitled: string,
): { title: string; steps: string[]; dependencies?: number[][] } | undefined {
  for (const call of calls) {
    if (call.name !== PLANNING_TOOL_NAME) continue;
    const parsed = PlanningParameters.safeParse(parseJson(call.arguments));
    if (!parsed.success) continue;
    const steps = (parsed.data.steps ?? []).map((step) => step.trim()).filter(Boolean);
    if (steps.length === 0) continue;
    return {
      title: parsed.data.title?.trim() || untitled,
      steps,
      ...(parsed.data.step_dependencies ? { dependencies: parsed.data.step_dependencies } : {}),
    };
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Notes of the completed steps this one builds on, in plan order. */
function earlierNotes(plan: Plan, index: number): string {
  const needed = new Set(prerequisitesOf(plan.steps[index]));
  return plan.steps
    .filter((step) => step.index < index && (needed.has(step.index) || step.status === 'completed') && step.notes)
    .map((step) => `Step ${step.index} (${step.text}): ${clipNote(step.notes)}`)
    .join('\n\n');
}

function earlierWork(plans: Plan[]): string | undefined {
  const recent = plans.slice(-EARLIER_PLANS);
  if (recent.length === 0) return undefined;
  return recent
    .map((plan) =>
      [
        `Task: ${plan.task}`,
        planText(plan),
        plan.summary ? `Result: ${clipNote(plan.summary)}` : completedResults(plan),
      ].join('\n'),
    )
    .join('\n\n---\n\n');
}

function firstLine(text: string): string {
  return clipNote(text.trim().split('\n')[0] ?? '', TITLE_LIMIT);
}
