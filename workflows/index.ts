// The workflow bundle: every workflow the worker runs is exported from here.
export {};
