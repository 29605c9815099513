import { describe, expect, it } from 'vitest';
import { promptElicitation } from '../../src/main/cli/elicitation-prompt.js';
import type { ElicitationForm } from '../../src/shared/elicitation-form.js';

const FORM: ElicitationForm = {
  server: 'asking',
  message: 'Who is the table for?',
  fields: [
    { name: 'name', type: 'string', title: 'Name', required: true, minLength: 2 },
    { name: 'guests', type: 'integer', title: 'Guests', required: true, default: 2, minimum: 1, maximum: 12 },
    { name: 'vegetarian', type: 'boolean', title: 'Vegetarian', required: false, default: false },
    {
      name: 'time',
      type: 'enum',
      title: 'Time',
      required: false,
      default: '19:00',
      options: [
        { value: '18:00', label: 'Six' },
        { value: '19:00', label: 'Seven' },
      ],
    },
    {
      name: 'extras',
      type: 'multi_enum',
      required: false,
      options: [
        { value: 'cake', label: 'Cake' },
        { value: 'wine', label: 'Wine' },
      ],
    },
  ],
};

/** The person at the terminal: answers the prompts in order and remembers what they were shown. */
function typist(lines: string[]) {
  const prompts: string[] = [];
  return {
    prompts,
    ask: async (prompt: string) => {
      prompts.push(prompt);
      const line = lines.shift();
      if (line === undefined) throw new Error(`no answer left for: ${prompt}`);
      return line;
    },
  };
}

describe('the terminal prompt for a server form', () => {
  it('asks each field with its hints, keeps defaults on Enter, asks again after a value that does not fit', async () => {
    const person = typist(['A', 'Ada', '30', '', '', 'six', 'cake, Wine', 'a']);
    const answer = await promptElicitation(FORM, person.ask);
    expect(answer).toEqual({
      action: 'accept',
      content: { name: 'Ada', guests: 2, vegetarian: false, time: '18:00', extras: ['cake', 'wine'] },
    });
    expect(person.prompts[0]).toBe('\n? MCP server "asking" asks: Who is the table for?\n  Name [required]: ');
    expect(person.prompts[1]).toBe('  ✕ at least 2 characters\n  Name [required]: ');
    expect(person.prompts[2]).toBe('  Guests [integer, required, default 2]: ');
    expect(person.prompts[3]).toBe('  ✕ at most 12\n  Guests [integer, required, default 2]: ');
    expect(person.prompts[4]).toBe('  Vegetarian [y/n, default no]: ');
    expect(person.prompts[5]).toBe('  Time [one of: Six (18:00), Seven (19:00), default 19:00]: ');
    expect(person.prompts[6]).toBe('  extras [some of: Cake (cake), Wine (wine)]: ');
  });

  it.each([
    ['d', 'decline'],
    ['c', 'cancel'],
    ['', 'cancel'],
  ] as const)('answers %j at the end as a %s', async (choice, action) => {
    const person = typist(['Ada', '', '', '', '', choice]);
    expect(await promptElicitation(FORM, person.ask)).toEqual({ action });
  });
});
