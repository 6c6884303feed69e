/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * producer.h - how the image's C code was compiled, from its DWARF
 * producer strings: whether -ffunction-sections was on, when no link map or
 * vmlinux.o says which input sections the functions sat in.
 */
#ifndef HP_PRODUCER_H
#define HP_PRODUCER_H

/**
 * producer_function_sections() - did GCC compile @path's code with
 * -ffunction-sections? Reads the DW_AT_producer strings GCC writes with its
 * command line (-grecord-gcc-switches, GCC's default) from .debug_str and
 * .debug_info (compressed or not).
 * Returns 1 when some producer string has -ffunction-sections, 0 when GCC
 * producer strings with switches are there and none has it, -1 when the
 * image cannot tell (no DWARF, another compiler, switches not recorded).
 */
int producer_function_sections(const char *path);

#endif
