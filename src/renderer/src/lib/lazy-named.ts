import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * A component loaded on first render from its own chunk: React.lazy for a module's named export, so a feature
 * the first screen does not show costs nothing until it is opened.
 */
export function lazyNamed<Name extends string, Props extends object>(
  load: () => Promise<Record<Name, ComponentType<Props>>>,
  name: Name,
): LazyExoticComponent<ComponentType<Props>> {
  return lazy(async () => ({ default: (await load())[name] }));
}
