package main

import (
	"bytes"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// indexedJob is the part of a Kubernetes Job that deploy/kubernetes's
// manifest writes: a field it does not know is a typo.
type indexedJob struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Metadata   struct {
		Name string `yaml:"name"`
	} `yaml:"metadata"`
	Spec struct {
		CompletionMode string `yaml:"completionMode"`
		Completions    int    `yaml:"completions"`
		Parallelism    int    `yaml:"parallelism"`
		Template       struct {
			Spec struct {
				RestartPolicy string `yaml:"restartPolicy"`
				Containers    []struct {
					Name            string   `yaml:"name"`
					Image           string   `yaml:"image"`
					ImagePullPolicy string   `yaml:"imagePullPolicy"`
					Args            []string `yaml:"args"`
					VolumeMounts    []struct {
						Name      string `yaml:"name"`
						MountPath string `yaml:"mountPath"`
					} `yaml:"volumeMounts"`
				} `yaml:"containers"`
				Volumes []struct {
					Name                  string `yaml:"name"`
					PersistentVolumeClaim struct {
						ClaimName string `yaml:"claimName"`
					} `yaml:"persistentVolumeClaim"`
				} `yaml:"volumes"`
			} `yaml:"spec"`
		} `yaml:"template"`
	} `yaml:"spec"`
}

// readmeShows fails t unless docs/commands.md shows file's text whole, as a
// fenced block.
func readmeShows(t *testing.T, file, text string) {
	t.Helper()
	readme, err := os.ReadFile("../../docs/commands.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, []byte("```\n"+text+"```\n")) && !regexp.MustCompile("```[a-z]+\n"+regexp.QuoteMeta(text)+"```\n").Match(readme) {
		t.Errorf("docs/commands.md does not show %s as it is", file)
	}
}

// TestDeployIndexedJob: deploy/kubernetes's Indexed Job parses, runs the
// image make image names, is the one docs/commands.md shows, and its arguments
// run the shard of its pod's index, as --shard K/N would.
func TestDeployIndexedJob(t *testing.T) {
	const file = "deploy/kubernetes/sweep-job.yaml"
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	var job indexedJob
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	if err := dec.Decode(&job); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	spec := job.Spec
	if job.APIVersion != "batch/v1" || job.Kind != "Job" || spec.CompletionMode != "Indexed" || spec.Template.Spec.RestartPolicy != "Never" || len(spec.Template.Spec.Containers) != 1 {
		t.Fatalf("%s: %+v, want a batch/v1 Indexed Job of one container that is never restarted", file, job)
	}
	c := spec.Template.Spec.Containers[0]
	makefile, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if want := "IMAGE ?= " + c.Image + "\n"; !bytes.Contains(makefile, []byte(want)) {
		t.Errorf("%s runs %s, not the image make image names (%q)", file, c.Image, want)
	}
	n := spec.Completions
	if i := slices.Index(c.Args, "--shard"); i < 0 || i+1 == len(c.Args) || c.Args[i+1] != "auto/"+strconv.Itoa(n) {
		t.Fatalf("%s: args %q, want --shard auto/%d, the Job's completions", file, c.Args, n)
	}
	readmeShows(t, file, string(b))

	// Kubernetes puts the index in $(JOB_COMPLETION_INDEX) as in the
	// variable; the volume is a folder of the test's; --dry-run, as the
	// sweep is long.
	if len(c.VolumeMounts) != 1 {
		t.Fatalf("%s: volume mounts %+v, want one, for the shards", file, c.VolumeMounts)
	}
	k := n - 1
	args := append(slices.Clone(c.Args), "--dry-run")
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "$(JOB_COMPLETION_INDEX)", strconv.Itoa(k))
		args[i] = strings.Replace(args[i], c.VolumeMounts[0].MountPath, t.TempDir(), 1)
	}
	code, got, stderr := runEnv(t, map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(k)}, args...)
	i := slices.Index(args, "auto/"+strconv.Itoa(n))
	args[i] = strconv.Itoa(k) + "/" + strconv.Itoa(n)
	_, want, _ := runCmd(t, args...)
	if code != 0 || got != want || !strings.Contains(got, "shard "+args[i]+" has ") {
		t.Errorf("%s's args under JOB_COMPLETION_INDEX=%d: exit %d, %q %q; want --shard %s's %q", file, k, code, got, stderr, args[i], want)
	}
}

// TestDeploySlurm: deploy/slurm's array job is a bash script, the one
// docs/commands.md shows, and its leasesim line under the environment Slurm
// gives its task i of the array runs shard i, as --shard K/N would.
func TestDeploySlurm(t *testing.T) {
	const file = "deploy/slurm/sweep.sbatch"
	b, err := os.ReadFile("../../" + file)
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("bash", "-n", "../../"+file).CombinedOutput(); err != nil {
		t.Errorf("bash -n %s: %v %s", file, err, out)
	}
	readmeShows(t, file, string(b))
	m := regexp.MustCompile(`(?m)^#SBATCH --array=(\d+)-(\d+)$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("%s has no #SBATCH --array=LO-HI line", file)
	}
	lo, _ := strconv.Atoi(string(m[1]))
	hi, _ := strconv.Atoi(string(m[2]))
	count := hi - lo + 1
	script := strings.ReplaceAll(string(b), "\\\n", " ")
	var line string
	for l := range strings.Lines(script) {
		if strings.HasPrefix(l, "leasesim ") {
			line = l
		}
	}
	k := 3
	env := map[string]string{"SLURM_ARRAY_TASK_ID": strconv.Itoa(lo + k), "SLURM_ARRAY_TASK_MIN": strconv.Itoa(lo), "SLURM_ARRAY_TASK_COUNT": strconv.Itoa(count)}
	var args []string
	for _, w := range strings.Fields(line)[1:] {
		args = append(args, os.Expand(strings.Trim(w, `"`), func(name string) string { return env[name] }))
	}
	if i := slices.Index(args, "--shard"); i < 0 || i+1 == len(args) || args[i+1] != "auto" {
		t.Fatalf("%s: %q, want a leasesim line with --shard auto", file, line)
	}
	args = append(args, "--dry-run")
	code, got, stderr := runEnv(t, env, args...)
	args[slices.Index(args, "auto")] = strconv.Itoa(k) + "/" + strconv.Itoa(count)
	_, want, _ := runCmd(t, args...)
	if code != 0 || got != want || !strings.Contains(got, "shard "+strconv.Itoa(k)+"/") {
		t.Errorf("%s's leasesim line under %v: exit %d, %q %q; want --shard %d/%d's %q", file, env, code, got, stderr, k, count, want)
	}
}
