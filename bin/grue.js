#!/usr/bin/env node
// Runs the TypeScript CLI directly (tsx compiles on the fly), so there is no build step to forget.
require('tsx/cjs');
require('../src/client.ts').run();
