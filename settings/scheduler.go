package settings

import "time"

// Scheduler is a widely used scheduler's default trigger policy in the
// model's terms. Each keeps a slot no node could start for when one can
// (the persistent trigger); they differ in whether they then run every
// missed slot or only the latest (CatchUpOnce), how late a slot may still
// start (CatchUpWindow), whether the store knows a slot's run by name,
// so that a second start of it is refused (IdempotencyKey), and what a
// slot due while an earlier run still runs does (Overlap, a value of
// model.Overlap's names).
// docs/schedulers.md cites the source of each and says what the model
// leaves out.
type Scheduler struct {
	Name           string
	CatchUpOnce    bool
	CatchUpWindow  time.Duration // 0: no limit
	IdempotencyKey bool
	Overlap        string
	RunsIn         string // where a started batch runs (model.RunsIn's names)
}

// Schedulers returns the scheduler presets: Kubernetes CronJob
// (startingDeadlineSeconds unset: the controller starts only the most
// recent missed schedule, in a Job named after its time; concurrencyPolicy
// Allow; the batch runs in the Job, not the controller: runs_in job), Quartz with a clustered JDBC job store (a cron trigger's default
// misfire instruction fires once now; one node acquires each firing; a job
// class without @DisallowConcurrentExecution runs beside itself) and a
// Temporal schedule (every missed action within its one-year catch-up
// window, each workflow id carrying its time; overlap policy Skip).
func Schedulers() []Scheduler {
	return []Scheduler{
		{"cronjob", true, 0, true, "allow", "job"},
		{"quartz", true, 0, true, "allow", "leader"},
		{"temporal", false, 365 * 24 * time.Hour, true, "skip", "leader"},
	}
}

// SchedulerByName returns the scheduler called name, or an error that
// lists the schedulers.
func SchedulerByName(name string) (Scheduler, error) { return byName(Schedulers(), name) }

// SchedulerNames lists the schedulers' names, comma-separated.
func SchedulerNames() string { return names(Schedulers()) }

// String is the scheduler's name.
func (s Scheduler) String() string { return s.Name }
