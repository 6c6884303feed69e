/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * qemu-plugin-api.h - hotpack's own declarations of the part of QEMU's TCG
 * plugin API (API version 1, as in QEMU 7.2) that the I-TLB plugin uses.
 *
 * Debian ships no qemu-plugin.h, so these are written from the API's
 * documentation and checked against the symbols the emulators export
 * (`nm -D /usr/bin/qemu-system-x86_64 | grep qemu_plugin`, same list in
 * qemu-x86_64 and qemu-ppc). Only what the plugin calls is declared; the
 * handles are opaque and valid only during the callback that passed them.
 */
#ifndef HP_QEMU_PLUGIN_API_H
#define HP_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The symbols a plugin exports must stay visible even with -fvisibility. */
#define HP_PLUGIN_EXPORT __attribute__((visibility("default")))

/* The plugin API level this plugin is written against (QEMU 7.2: 1). */
#define HP_QEMU_PLUGIN_API 1

typedef uint64_t qemu_plugin_id_t;

/* What QEMU tells qemu_plugin_install() about itself and the guest. */
typedef struct qemu_info_t {
	const char *target_name;	/* e.g. "x86_64", "ppc" */
	struct {
		int min;		/* oldest API level still supported */
		int cur;		/* API level of this QEMU */
	} version;
	bool system_emulation;		/* false under qemu-user */
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;		/* valid only in system emulation */
	};
} qemu_info_t;

/* Opaque handles. */
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* Register access requested by a callback; hotpack needs none. */
enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

/* Callback shapes. */
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id,
					       struct qemu_plugin_tb *tb);

/* Provided by the plugin: the API level and the entry point (0 = loaded). */
extern HP_PLUGIN_EXPORT int qemu_plugin_version;
HP_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					 int argc, char **argv);

/* Provided by QEMU. */
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  qemu_plugin_vcpu_udata_cb_t cb,
					  enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);

/* "on|yes|true|off|no|false" -> *ret; false when @val is none of them. */
bool qemu_plugin_bool_parse(const char *name, const char *val, bool *ret);

/* qemu-user only: the guest binary's text segment (0 in system mode). */
uint64_t qemu_plugin_start_code(void);
uint64_t qemu_plugin_end_code(void);

#endif
