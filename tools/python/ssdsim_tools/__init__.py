"""The simulator's exploration tools (docs/exploration.md): sweeps of ssdsim runs over a spec's
axes, run on a local pool, a Dask cluster or Slurm, gathered into results.csv, and plots of it."""
