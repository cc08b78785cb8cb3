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
{{- include "groundwire.kafkaSecurityCheck" . -}}
{{- $tls := .Values.kafka.tls -}}
GROUNDWIRE_BOOTSTRAP_SERVERS: {{ .Values.kafka.bootstrapServers | quote }}
GROUNDWIRE_TOPIC_PREFIX: {{ .Values.kafka.topicPrefix | quote }}
GROUNDWIRE_PARTITIONS: {{ .Values.kafka.partitions | quote }}
GROUNDWIRE_REPLICATION_FACTOR: {{ .Values.kafka.replicationFactor | quote }}
GROUNDWIRE_KAFKA__SECURITY_PROTOCOL: {{ .Values.kafka.security.protocol | quote }}
{{- if hasPrefix "SASL_" .Values.kafka.security.protocol }}
GROUNDWIRE_KAFKA__SASL_MECHANISM: {{ .Values.kafka.sasl.mechanism | quote }}
{{- end }}
{{- if $tls.existingSecret }}
{{- range $setting, $key := dict "SSL_CA_LOCATION" $tls.caKey "SSL_CERTIFICATE_LOCATION" $tls.certificateKey "SSL_KEY_LOCATION" $tls.keyKey }}
{{- if $key }}
GROUNDWIRE_KAFKA__{{ $setting }}: {{ printf "%s/%s" (include "groundwire.kafkaTlsDir" $) $key | quote }}
{{- end }}
{{- end }}
{{- end }}
{{- end -}}

{{- define "groundwire.kafkaTlsDir" -}}/etc/groundwire/kafka-tls{{- end -}}

{{/* Refuse Kafka security values groundwire would refuse at start, at render time. */}}
{{- define "groundwire.kafkaSecurityCheck" -}}
{{- $k := .Values.kafka -}}
{{- $protocols := list "PLAINTEXT" "SSL" "SASL_PLAINTEXT" "SASL_SSL" -}}
{{- if not (has $k.security.protocol $protocols) -}}
{{- fail (printf "kafka.security.protocol %q: one of %s" $k.security.protocol (join ", " $protocols)) -}}
{{- end -}}
{{- if hasPrefix "SASL_" $k.security.protocol -}}
{{- if not (has $k.sasl.mechanism (list "PLAIN" "SCRAM-SHA-256" "SCRAM-SHA-512")) -}}
{{- fail (printf "kafka.security.protocol %s needs kafka.sasl.mechanism: PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512" $k.security.protocol) -}}
{{- end -}}
{{- if not $k.sasl.existingSecret -}}
{{- fail (printf "kafka.security.protocol %s needs kafka.sasl.existingSecret (a Secret with the SASL username and password)" $k.security.protocol) -}}
{{- end -}}
{{- else if or $k.sasl.mechanism $k.sasl.existingSecret -}}
{{- fail (printf "kafka.sasl.* is set but kafka.security.protocol is %s" $k.security.protocol) -}}
{{- end -}}
{{- if and (not $k.tls.existingSecret) (or $k.tls.certificateKey $k.tls.keyKey $k.tls.keyPasswordKey) -}}
{{- fail "kafka.tls.certificateKey/keyKey/keyPasswordKey name keys of kafka.tls.existingSecret, which is not set" -}}
{{- end -}}
{{- end -}}

{{/* Secret Kafka settings as env entries (secretKeyRef), for the workers and the topic Job. */}}
{{- define "groundwire.kafkaSecretEnv" -}}
{{- $k := .Values.kafka -}}
{{- if hasPrefix "SASL_" $k.security.protocol }}
- name: GROUNDWIRE_KAFKA__SASL_USERNAME
  valueFrom:
    secretKeyRef:
      name: {{ $k.sasl.existingSecret | quote }}
      key: {{ $k.sasl.usernameKey | quote }}
- name: GROUNDWIRE_KAFKA__SASL_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $k.sasl.existingSecret | quote }}
      key: {{ $k.sasl.passwordKey | quote }}
{{- end }}
{{- if and $k.tls.existingSecret $k.tls.keyPasswordKey }}
- name: GROUNDWIRE_KAFKA__SSL_KEY_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ $k.tls.existingSecret | quote }}
      key: {{ $k.tls.keyPasswordKey | quote }}
{{- end }}
{{- end -}}

{{/* The TLS Secret's volume and its read-only mount (empty without kafka.tls.existingSecret). */}}
{{- define "groundwire.kafkaTlsVolume" -}}
{{- if .Values.kafka.tls.existingSecret }}
- name: kafka-tls
  secret:
    secretName: {{ .Values.kafka.tls.existingSecret | quote }}
{{- end }}
{{- end -}}

{{- define "groundwire.kafkaTlsMount" -}}
{{- if .Values.kafka.tls.existingSecret }}
- name: kafka-tls
  mountPath: {{ include "groundwire.kafkaTlsDir" . }}
  readOnly: true
{{- end }}
{{- end -}}
