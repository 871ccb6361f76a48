import { describe, expect, it } from 'vitest';
import { parseSetupScript } from './setup-script.js';

describe('parseSetupScript', () => {
  it('splits the npm install line from the commands after it', () => {
    expect(parseSetupScript('npm install @attnkit/models @tensorflow/tfjs-core vite\nmkdir -p public\ncp a public/\n')).toEqual({
      packages: ['@attnkit/models', '@tensorflow/tfjs-core', 'vite'],
      commands: 'mkdir -p public\ncp a public/',
    });
  });

  it('needs exactly one npm install line, with names only', () => {
    expect(() => parseSetupScript('mkdir public\n')).toThrow('parseSetupScript: the setup script must have one `npm install` line; found 0');
    expect(() => parseSetupScript('npm install vite@7.3.8 @attnkit/models\n')).toThrow('parseSetupScript: name packages without versions (the tests pin them); received vite@7.3.8.');
  });
});
