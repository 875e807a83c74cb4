#!/usr/bin/env python3
"""The deployment files agree with Kubernetes, with each other and with the
server (run with the tools' virtual environment: scripts/setup/install-packages.sh).

    .build-tools/venv/bin/python scripts/checks/deploy.py

- every manifest of docker/k8s/ passes kubernetes-validate --strict (offline
  schemas) for the Kubernetes versions below;
- kustomization.yaml lists files that exist;
- each Deployment: probes on /healthz and /readyz (routes of
  docs/openapi.yaml), a read-only root, non-root user 10001 (the image's),
  terminationGracePeriodSeconds above preStop + LAMINA_DRAIN_TIME, ports the
  image exposes; the GPU one asks for nvidia.com/gpu;
- the Service, HPA and PDB select and target what exists;
- docker/compose.yaml builds docker/Dockerfile and its stop grace period is
  above its drain time;
- the Dockerfile has a HEALTHCHECK on /healthz, a fixed non-root USER,
  `serve` as its command, the shaders beside the binary.
Ends with "N passed, M failed".
"""
import os
import re
import subprocess
import sys

import yaml

from checks import check, finish

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
K8S = os.path.join(ROOT, "docker", "k8s")
VERSIONS = ["1.29.0", "1.33.0"]
def load(name):
    with open(os.path.join(K8S, name)) as f:
        return list(yaml.safe_load_all(f))


manifests = sorted(f for f in os.listdir(K8S) if f.endswith(".yaml") and f != "kustomization.yaml")
validator = os.path.join(os.path.dirname(sys.executable), "kubernetes-validate")
for version in VERSIONS:
    result = subprocess.run([validator, "--strict", "--quiet", "-k", version] + [os.path.join(K8S, m) for m in manifests],
                            capture_output=True, text=True)
    check(f"kubernetes-validate --strict, Kubernetes {version}: {', '.join(manifests)}",
          result.returncode == 0, result.stdout + result.stderr)

kustomization = load("kustomization.yaml")[0]
check("kustomization.yaml lists files that exist",
      all(os.path.exists(os.path.join(K8S, r)) for r in kustomization["resources"]), kustomization["resources"])

with open(os.path.join(ROOT, "docs", "openapi.yaml")) as f:
    api_paths = set(yaml.safe_load(f)["paths"])
with open(os.path.join(ROOT, "docker", "Dockerfile")) as f:
    dockerfile = f.read()
exposed = {int(p) for p in re.search(r"^EXPOSE (.+)$", dockerfile, re.M).group(1).split()}
image_user = re.search(r"^USER (\d+)", dockerfile, re.M).group(1)

deployments = {}
for name in manifests:
    for doc in load(name):
        if doc["kind"] == "Deployment":
            deployments[doc["metadata"]["name"]] = doc
check("there is a CPU and a GPU Deployment", set(deployments) == {"lamina", "lamina-gpu"}, set(deployments))
for name, deployment in deployments.items():
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    check(f"{name}: readiness on /readyz, liveness on /healthz, both API routes",
          container["readinessProbe"]["httpGet"]["path"] == "/readyz" and container["livenessProbe"]["httpGet"]["path"] == "/healthz"
          and {"/readyz", "/healthz"} <= api_paths)
    check(f"{name}: read-only root, no privilege escalation, capabilities dropped",
          container["securityContext"]["readOnlyRootFilesystem"] is True
          and container["securityContext"]["allowPrivilegeEscalation"] is False
          and container["securityContext"]["capabilities"]["drop"] == ["ALL"])
    check(f"{name}: runs as the image's non-root user", pod["securityContext"]["runAsNonRoot"] is True
          and str(pod["securityContext"]["runAsUser"]) == image_user)
    check(f"{name}: a writable /tmp (fontconfig and Mesa caches)",
          any(m["mountPath"] == "/tmp" for m in container["volumeMounts"]))
    pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][1])
    drain = float(env.get("LAMINA_DRAIN_TIME", 25))
    check(f"{name}: terminationGracePeriodSeconds ({pod['terminationGracePeriodSeconds']}) above preStop ({pre_stop}) + drain ({drain:g})",
          pod["terminationGracePeriodSeconds"] > pre_stop + drain)
    check(f"{name}: container ports are the image's", {p["containerPort"] for p in container["ports"]} == exposed)
    check(f"{name}: resources are requested and limited", "requests" in container["resources"] and "limits" in container["resources"])
    selector = deployment["spec"]["selector"]["matchLabels"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    check(f"{name}: the selector matches the pod's labels", all(labels.get(k) == v for k, v in selector.items()))
gpu = deployments["lamina-gpu"]["spec"]["template"]["spec"]["containers"][0]
check("the GPU Deployment asks for nvidia.com/gpu and the GL backend",
      gpu["resources"]["limits"].get("nvidia.com/gpu") == 1
      and {e["name"]: e.get("value") for e in gpu["env"]}.get("LAMINA_BACKEND") == "gl")

service = load("service.yaml")[0]
cpu_labels = deployments["lamina"]["spec"]["template"]["metadata"]["labels"]
check("the Service selects the CPU pods", all(cpu_labels.get(k) == v for k, v in service["spec"]["selector"].items()))
named_ports = {p["name"] for p in deployments["lamina"]["spec"]["template"]["spec"]["containers"][0]["ports"]}
check("the Service targets named ports that exist", {p["targetPort"] for p in service["spec"]["ports"]} <= named_ports)
hpa = load("hpa.yaml")[0]
check("the HPA scales the CPU Deployment", hpa["spec"]["scaleTargetRef"]["name"] == "lamina"
      and hpa["spec"]["minReplicas"] >= 2)
pdb = load("pdb.yaml")[0]
check("the PDB selects the CPU pods and keeps one", pdb["spec"]["minAvailable"] >= 1
      and all(cpu_labels.get(k) == v for k, v in pdb["spec"]["selector"]["matchLabels"].items()))

with open(os.path.join(ROOT, "docker", "compose.yaml")) as f:
    compose = yaml.safe_load(f)
built = {service["image"] for service in compose["services"].values() if "build" in service}
for name, service in compose["services"].items():
    if not service["image"].startswith("lamina"):
        continue
    if "build" in service:
        check(f"compose {name}: builds docker/Dockerfile from the repository",
              service["build"]["dockerfile"] == "docker/Dockerfile" and service["build"]["context"] == "..")
    else:
        check(f"compose {name}: runs the image another service builds", service["image"] in built, service["image"])
    grace = int(service["stop_grace_period"].rstrip("s"))
    drain = float(service.get("environment", {}).get("LAMINA_DRAIN_TIME", 25))
    check(f"compose {name}: stop_grace_period ({grace}s) above the drain time ({drain:g}s)", grace > drain)
    check(f"compose {name}: read-only with a /tmp tmpfs", service["read_only"] is True
          and any(t.startswith("/tmp") for t in service["tmpfs"]))

replicas = {name: service for name, service in compose["services"].items()
            if "LAMINA_JOBS_STORE" in service.get("environment", {})}
check("compose fleet: two replicas or more share one job store, a PostgreSQL service of the file",
      len(replicas) >= 2 and len({s["environment"]["LAMINA_JOBS_STORE"] for s in replicas.values()}) == 1
      and all(s.get("depends_on", {}).get("postgres", {}).get("condition") == "service_healthy" for s in replicas.values())
      and "healthcheck" in compose["services"].get("postgres", {}), sorted(replicas))
check("compose fleet: the password from a secret file, never in the URL",
      all("@" in s["environment"]["LAMINA_JOBS_STORE"] and ":" not in s["environment"]["LAMINA_JOBS_STORE"].split("//", 1)[1].split("@")[0]
          and s["environment"].get("LAMINA_JOBS_STORE_PASSWORD_FILE", "").startswith("/run/secrets/") for s in replicas.values()))
check("compose fleet: results on a volume every replica mounts at LAMINA_RESULTS_DIR",
      all(any(v.split(":")[1] == s["environment"].get("LAMINA_RESULTS_DIR") for v in s.get("volumes", [])) for s in replicas.values()))

check("Dockerfile: HEALTHCHECK on /healthz", re.search(r"^HEALTHCHECK .*/healthz", dockerfile, re.M | re.S) is not None)
check("Dockerfile: a fixed non-root USER", image_user != "0")
check("Dockerfile: an empty fonts folder to mount, named by LAMINA_FONTS",
      "mkdir -p /opt/lamina/fonts" in dockerfile and "LAMINA_FONTS=/opt/lamina/fonts" in dockerfile)
check("Dockerfile: the preferred families of the font table, CJK and emoji",
      all(p in dockerfile for p in ["fonts-liberation", "fonts-dejavu-core", "fonts-wqy-microhei", "fonts-noto-color-emoji"]))
check("Dockerfile: the ffmpeg program for MP4, unless VIDEO=none",
      re.search(r"^ARG VIDEO=ffmpeg$", dockerfile, re.M) is not None
      and re.search(r'if \[ "\$VIDEO" = ffmpeg \]; then \\\s*\n\s*.*apt-get install [^\n]*\bffmpeg\b', dockerfile) is not None)
check("Dockerfile: `lamina serve` is the default command",
      'ENTRYPOINT ["/opt/lamina/bin/lamina"]' in dockerfile and 'CMD ["serve"]' in dockerfile)
check("Dockerfile: the shaders are installed beside the binary (share/lamina/Shaders)",
      "/staging/share/lamina/Shaders" in dockerfile)
check("Dockerfile: the NVIDIA variant registers glvnd's 10_nvidia.json",
      "10_nvidia.json" in dockerfile and "NVIDIA_DRIVER_CAPABILITIES=graphics,utility" in dockerfile)
finish()
