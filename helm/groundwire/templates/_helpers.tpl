{{- define "groundwire.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "groundwire.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "groundwire.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "groundwire.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{- define "groundwire.selectorLabels" -}}
app.kubernetes.io/name: {{ include "groundwire.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "groundwire.image" -}}
{{ .Values.image.repository }}:{{ .Values.image.tag | default .Chart.AppVersion }}
{{- end -}}

{{- define "groundwire.secretName" -}}
{{- .Values.existingSecret | default (include "groundwire.fullname" .) -}}
{{- end -}}

{{/* Kafka settings, shared by the ConfigMap and the topic Job (which runs before the ConfigMap exists). */}}
{{- define "groundwire.kafkaEnv" -}}
GROUNDWIRE_BOOTSTRAP_SERVERS: {{ .Values.kafka.bootstrapServers | quote }}
GROUNDWIRE_TOPIC_PREFIX: {{ .Values.kafka.topicPrefix | quote }}
GROUNDWIRE_PARTITIONS: {{ .Values.kafka.partitions | quote }}
GROUNDWIRE_REPLICATION_FACTOR: {{ .Values.kafka.replicationFactor | quote }}
{{- end -}}
