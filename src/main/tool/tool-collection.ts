import { z } from 'zod';
import type { ToolSpec } from '../llm/types.js';
import type { AnyTool } from './tool.js';

/** The tools one agent may call, in the order they were added; a name clash keeps the first. */
export class ToolCollection {
  private readonly byName = new Map<string, AnyTool>();

  constructor(
    tools: AnyTool[] = [],
    private readonly onClash: (text: string, tool: string) => void = () => {},
  ) {
    for (const tool of tools) this.add(tool);
  }

  add(tool: AnyTool): boolean {
    if (this.byName.has(tool.name)) {
      this.onClash(`Tool "${tool.name}" is already registered; the second one was skipped.`, tool.name);
      return false;
    }
    this.byName.set(tool.name, tool);
    return true;
  }

  get(name: string): AnyTool | undefined {
    return this.byName.get(name);
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  all(): AnyTool[] {
    return [...this.byName.values()];
  }

  /** The list the model sees, with JSON schemas derived from the zod schemas. */
  specs(): ToolSpec[] {
    return this.all().map(toolSpec);
  }
}

const specCache = new WeakMap<AnyTool, ToolSpec>();

export function toolSpec(tool: AnyTool): ToolSpec {
  const cached = specCache.get(tool);
  if (cached) return cached;
  const parameters = tool.inputJsonSchema ?? jsonSchemaOf(tool.parameters);
  const spec: ToolSpec = { name: tool.name, description: tool.description, parameters };
  specCache.set(tool, spec);
  return spec;
}

function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}
