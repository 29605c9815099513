/** The application menu's own labels in the UI's languages (Electron localises the role menus itself). */
export const MENU_LANGUAGES = ['en', 'zh'] as const;
export type MenuLanguage = (typeof MENU_LANGUAGES)[number];

export const MENU_LABELS: Record<
  MenuLanguage,
  {
    file: string;
    newSession: string;
    search: string;
    settings: string;
    session: string;
    focusComposer: string;
    stop: string;
    togglePlan: string;
    projectPage: string;
    version: string;
  }
> = {
  en: {
    file: 'File',
    newSession: 'New Session',
    search: 'Search Sessions',
    settings: 'Settings',
    session: 'Session',
    focusComposer: 'Focus Composer',
    stop: 'Stop Run',
    togglePlan: 'Toggle Plan Panel',
    projectPage: 'Project Page',
    version: 'Version',
  },
  zh: {
    file: '文件',
    newSession: '新建会话',
    search: '搜索会话',
    settings: '设置',
    session: '会话',
    focusComposer: '聚焦输入框',
    stop: '停止运行',
    togglePlan: '显示/隐藏计划面板',
    projectPage: '项目主页',
    version: '版本',
  },
};

/** Chinese when the system prefers it, as the renderer decides before the user picks a language. */
export function menuLanguageOf(locales: readonly string[]): MenuLanguage {
  return locales.some((locale) => /^zh\b/i.test(locale)) ? 'zh' : 'en';
}
