/**
 * `bot parity --fill-model FILE`: the fill model to compare with, from a YAML file with a `fillModel:` block (what
 * `--fit` writes, or a backtest config holding one; other keys are left alone).
 */
import { z } from 'zod';
import { FillModelBlockSchema, type FillModelParams } from '../../src/fill-model/fill-model-params.js';
import { loadYamlConfig } from '../../src/settings/load-yaml.js';

const FillModelFileSchema = z.looseObject({ fillModel: FillModelBlockSchema });

export function loadFillModelFile(file: string): FillModelParams {
  return loadYamlConfig(file, FillModelFileSchema).fillModel;
}
