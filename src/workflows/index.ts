// The workflow bundle's entry point: every workflow type the worker serves.
export { episodeWorkflow } from './episode';
export { campaignWorkflow } from './campaign';
export { experimentWorkflow } from './experiment';
export { suiteWorkflow } from './suite';
