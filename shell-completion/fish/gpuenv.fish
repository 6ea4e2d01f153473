# SPDX-License-Identifier: GPL-2.0-or-later
# fish completion for gpuenv (installed by `meson install` into
# share/fish/vendor_completions.d). The option lists follow `gpuenv COMMAND --help`;
# tests/tools/check-completions.py fails when they drift apart.

set -l commands doctor explain report facts scan exporter check capture diff fleet labels health version help
complete -c gpuenv -f
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a doctor -d 'what will fail, in which layer, why, how to fix (default)'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a explain -d 'pasted errors and command output judged by the same rules'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a report -d 'the layer inventory of this machine'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a facts -d 'look up the knowledge base'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a scan -d 'GPU targets in binaries and wheels'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a exporter -d 'serve GPU metrics and the diagnosis to Prometheus'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a check -d 'judge against a policy, for CI'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a diff -d 'what changed between two snapshots'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a fleet -d 'many machines: majority values and who deviates'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a labels -d 'Kubernetes node labels for Node Feature Discovery'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a health -d 'node health check; --slurm drains and resumes'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a capture -d 'keep what the probes read, with the snapshot, as a .tar.zst to replay'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a version -d 'print the version'
complete -c gpuenv -n "not __fish_seen_subcommand_from $commands" -a help -d 'the commands and exit codes'

# Options of report and doctor (COMMON_OPTIONS_HELP in tools/gpuenv.h); `gpuenv` without a
# command runs doctor, so they apply there too.
set -l common "not __fish_seen_subcommand_from facts scan diff fleet version help"
complete -c gpuenv -n $common -s R -l sysroot -x -a '(__fish_complete_directories)' -d 'read the machine image under DIR'
complete -c gpuenv -n $common -l image -r -F -d 'judge a container image (docker save, OCI layout, root tar)'
complete -c gpuenv -n $common -l image-platform -x -a 'linux/amd64 linux/arm64' -d 'the manifest of a multi-platform image'
complete -c gpuenv -n $common -l image-verify -d 'hash each layer blob against its manifest digest'
complete -c gpuenv -n $common -l wheel -r -F -d 'a Python wheel judged as installed'
complete -c gpuenv -n $common -s E -l env-file -r -F -d 'environment of the judged process'
complete -c gpuenv -n $common -s F -l from -r -F -d 'load a snapshot written by report --json or a capture bundle'
complete -c gpuenv -n $common -l nvml-lib -r -F -d 'libnvidia-ml.so.1 to load'
complete -c gpuenv -n $common -l cuda-lib -r -F -d 'libcuda.so.1 to load'
complete -c gpuenv -n $common -l opencl-lib -r -F -d 'libOpenCL.so.1 to load'
complete -c gpuenv -n $common -l amdsmi-lib -r -F -d 'libamd_smi.so to load'
complete -c gpuenv -n $common -l ze-lib -r -F -d 'libze_loader.so.1 (Level Zero) to load'
complete -c gpuenv -n $common -l no-vendor -d 'never call vendor libraries'
complete -c gpuenv -n $common -l opencl-all -d 'also load CPU-only OpenCL implementations'
complete -c gpuenv -n $common -l pci-ids -r -F -d 'pci.ids naming GPUs the built-in table lacks'
complete -c gpuenv -n $common -l vendor-timeout -x -d 'deadline of each vendor session (ms)'
complete -c gpuenv -n $common -l trace-paths -r -F -d 'write every path read to FILE'
complete -c gpuenv -n $common -l stable -d 'no timings, hostnames or other run-to-run noise'
complete -c gpuenv -n $common -l redact -d 'replace UUIDs, serial numbers and environment values'
complete -c gpuenv -n $common -l color -x -a 'auto always never' -d 'use colours'
complete -c gpuenv -n $common -l pid -x -a '(__fish_complete_pids)' -d 'also list the GPU libraries process N mapped'
complete -c gpuenv -n $common -s j -l json -d 'JSON output'
complete -c gpuenv -n $common -s v -l verbose -d 'log what the probes do to stderr'
complete -c gpuenv -n $common -s h -l help -d 'show help'

set -l doctor "not __fish_seen_subcommand_from explain report facts scan exporter check capture diff fleet labels health version help"
complete -c gpuenv -n $doctor -l markdown -d 'Markdown to paste into an issue'
complete -c gpuenv -n $doctor -l mermaid -d 'the diagnosis path as a Mermaid flowchart'
complete -c gpuenv -n $doctor -l strict -d 'exit 1 when there are warnings'
complete -c gpuenv -n $doctor -l list-rules -d 'print the rule catalogue'
complete -c gpuenv -n $doctor -l launch -d 'also run a tiny kernel on each GPU and check its result'
complete -c gpuenv -n '__fish_seen_subcommand_from report' -l launch -d 'also run a tiny kernel on each GPU and check its result'

complete -c gpuenv -n '__fish_seen_subcommand_from facts' -s j -l json -d 'JSON output'
complete -c gpuenv -n '__fish_seen_subcommand_from facts' -s h -l help -d 'show help'
complete -c gpuenv -n '__fish_seen_subcommand_from facts; and __fish_is_nth_token 2' -a 'cuda driver gpu xid cudnn torch rocm tensorflow'

set -l scan '__fish_seen_subcommand_from scan'
complete -c gpuenv -n $scan -F
complete -c gpuenv -n $scan -l gpu -x -d 'judge for this device (8.6, sm_86, a GPU name)'
complete -c gpuenv -n $scan -l this-machine -d "judge for this machine's NVIDIA GPUs and driver"
complete -c gpuenv -n $scan -l driver -x -d 'driver version'
complete -c gpuenv -n $scan -l deep -d 'also decompress payload heads, search every ELF section'
complete -c gpuenv -n $scan -l all-files -d 'in directories, look at every file'
complete -c gpuenv -n $scan -s a -l all -d 'also list files without GPU code'
complete -c gpuenv -n $scan -l max-depth -x -d 'directory levels to descend'
complete -c gpuenv -n $scan -l max-files -x -d 'files to examine at most'
complete -c gpuenv -n $scan -s R -l sysroot -x -a '(__fish_complete_directories)' -d 'read paths inside DIR'
complete -c gpuenv -n $scan -s F -l from -r -F -d 'a snapshot from report --json'
complete -c gpuenv -n $scan -l color -x -a 'auto always never' -d 'use colours'
complete -c gpuenv -n $scan -s j -l json -d 'JSON output'
complete -c gpuenv -n $scan -s v -l verbose -d 'log to stderr'
complete -c gpuenv -n $scan -s h -l help -d 'show help'

set -l explain '__fish_seen_subcommand_from explain'
complete -c gpuenv -n $explain -F
complete -c gpuenv -n $explain -l markdown -d 'Markdown to reply in an issue'
complete -c gpuenv -n $explain -l this-machine -d "judge the text together with this machine's snapshot"

complete -c gpuenv -n '__fish_seen_subcommand_from version' -l json -d 'JSON output'
complete -c gpuenv -n '__fish_seen_subcommand_from version' -s h -l help -d 'show help'

set -l exporter '__fish_seen_subcommand_from exporter'
complete -c gpuenv -n $exporter -l listen -x -d 'ADDRESS:PORT to listen on (127.0.0.1:9400)'
complete -c gpuenv -n $exporter -l interval -x -d 'GPU sample period (10s)'
complete -c gpuenv -n $exporter -l diagnose-every -x -d 'full diagnosis period (5m)'
complete -c gpuenv -n $exporter -l once -d 'print one exposition and exit'
complete -c gpuenv -n $exporter -l output -r -F -d 'with --once: write FILE atomically'
complete -c gpuenv -n $exporter -l openmetrics -d 'with --once: OpenMetrics 1.0'
complete -c gpuenv -n $exporter -l web-config -r -F -d 'TLS, client certificates, basic authentication (exporter-toolkit format)'
complete -c gpuenv -n $exporter -l nvml-child -x -a 'long-lived per-sample' -d 'one NVML child kept between samples, or one per sample'
set -l check '__fish_seen_subcommand_from check'
complete -c gpuenv -n $check -l policy -r -F -d 'the policy (YAML)'
complete -c gpuenv -n $check -l profile -x -a 'runtime build' -d 'runtime (GPU node) or build host'
complete -c gpuenv -n $check -l today -x -d 'judge waiver expiry as of DATE (YYYY-MM-DD)'
complete -c gpuenv -n $check -l junit -r -F -d 'also write JUnit XML'
complete -c gpuenv -n $check -l sarif -r -F -d 'also write SARIF 2.1.0'
complete -c gpuenv -n $check -l markdown -r -F -d 'also write a Markdown job summary'
complete -c gpuenv -n $check -l github -d 'also print GitHub Actions annotations'
complete -c gpuenv -n $check -l host -r -F -d "judge as on the target machine (its report --json)"
complete -c gpuenv -n $check -l target -x -d "judge as on a machine named by gpu=…,driver=…"

set -l diff '__fish_seen_subcommand_from diff'
complete -c gpuenv -n $diff -F
complete -c gpuenv -n $diff -s j -l json -d 'JSON output'
complete -c gpuenv -n $diff -l markdown -d 'Markdown tables to paste into an issue'
complete -c gpuenv -n $diff -s h -l help -d 'show help'

set -l fleet '__fish_seen_subcommand_from fleet'
complete -c gpuenv -n $fleet -F
complete -c gpuenv -n $fleet -s j -l json -d 'JSON output'
complete -c gpuenv -n $fleet -l markdown -d 'a Markdown table to paste into an issue'
complete -c gpuenv -n $fleet -s h -l help -d 'show help'

set -l labels '__fish_seen_subcommand_from labels'
complete -c gpuenv -n $labels -l nfd -r -F -d "write NFD's features.d file atomically"
complete -c gpuenv -n $labels -l expiry -x -d 'seconds until the labels expire'

set -l capture '__fish_seen_subcommand_from capture'
complete -c gpuenv -n $capture -s o -l output -r -F -d 'the bundle, written atomically'

set -l health '__fish_seen_subcommand_from health'
complete -c gpuenv -n $health -l slurm -d 'drain or resume this node through scontrol'
complete -c gpuenv -n $health -l dry-run -d 'print the scontrol command instead'
complete -c gpuenv -n $health -l node -x -d 'the Slurm node name'
