import { describe, expect, it } from 'vitest';
import { MENU_LABELS, menuLanguageOf } from '../../src/main/electron/menu-labels.js';

describe('the desktop menu in the UI languages', () => {
  it('has every label in English and Chinese and follows a Chinese system', () => {
    expect(Object.keys(MENU_LABELS.zh)).toEqual(Object.keys(MENU_LABELS.en));
    for (const [key, label] of Object.entries(MENU_LABELS.zh)) {
      expect(label, key).not.toBe(MENU_LABELS.en[key as keyof typeof MENU_LABELS.en]);
    }
    expect(menuLanguageOf(['zh-CN', 'en-US'])).toBe('zh');
    expect(menuLanguageOf(['en-GB', 'zh-Hans'])).toBe('zh');
    expect(menuLanguageOf(['de-DE', 'en-US'])).toBe('en');
    expect(menuLanguageOf([])).toBe('en');
  });
});
