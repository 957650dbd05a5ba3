import { bundleWorkflowCode, Runtime, WorkflowBundle } from '@temporalio/worker';

const bundles = new Map<string, Promise<WorkflowBundle>>();

/**
 * The workflow code, bundled once per process for each set of interceptor modules. Bundling is
 * webpack over workflows/ and everything they import, one to two seconds of CPU: a worker process
 * starts one worker and pays it once either way, but a test process starts a worker for many of its
 * files (and several when tests stop and restart one), and paid it each time. The bundle holds what
 * `Worker.create` would put in it from `workflowsPath`: the workflows, the interceptor modules and
 * the failure converter.
 */
export function workflowBundle(interceptorModules: string[], failureConverterPath: string | undefined): Promise<WorkflowBundle> {
  const key = JSON.stringify([interceptorModules, failureConverterPath]);
  let bundle = bundles.get(key);
  if (!bundle) {
    bundle = bundleWorkflowCode({
      workflowsPath: require.resolve('../workflows'),
      workflowInterceptorModules: interceptorModules,
      failureConverterPath,
      logger: Runtime.instance().logger,
    });
    // A failed bundling is not kept: the next worker tries again.
    bundle.catch(() => bundles.delete(key));
    bundles.set(key, bundle);
  }
  return bundle;
}
