/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whether the file a mapping names is, on this machine, the one the
 * profiled process had mapped, from stat() alone: a profile taken on
 * another machine names this machine's libc too, and naming its PCs from
 * this libc would be wrong. The maps line recorded the file's device and
 * inode; a file that has neither is a different file, and one shorter than
 * the mapped offset cannot hold the mapped code. Asked before any ELF or
 * DWARF is read, so that a profile whose files are all elsewhere costs
 * nothing to symbolize.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "symbolize/symbolize.h"

/* The "major:minor" (hex) of a maps line as a device number; 0 when unknown or a virtual device. */
static int recorded_device(const char *device, unsigned *major_out, unsigned *minor_out)
{
	unsigned maj, min;
	char end;
	if (!device || sscanf(device, "%x:%x%c", &maj, &min, &end) != 2)
		return 0;
	*major_out = maj;
	*minor_out = min;
	/* Major 0 is the kernel's unnamed devices (overlayfs, btrfs subvolumes, tmpfs): the number of
	 * such a mount differs between a process's view and stat()'s, so it says nothing here. */
	return maj != 0;
}

int pd_symbolize_recorded_file(const char *full_path, const pd_recorded_file *rec, char *why, size_t cap)
{
	struct stat sb;
	unsigned maj, min;
	if (stat(full_path, &sb) != 0) {
		snprintf(why, cap, "it cannot be opened");
		return 1;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(why, cap, "it is not a regular file");
		return 1;
	}
	/* A copy (under a sysroot) or a file the profile names by build id is judged by its contents. */
	if (rec->same_machine && rec->inode && (uint64_t)sb.st_ino != rec->inode) {
		snprintf(why, cap, "its inode is %llu, the profile recorded %llu (another machine's file, or replaced since)",
		         (unsigned long long)sb.st_ino, (unsigned long long)rec->inode);
		return 1;
	}
	if (rec->same_machine && recorded_device(rec->device, &maj, &min) && (major(sb.st_dev) != maj || minor(sb.st_dev) != min)) {
		snprintf(why, cap, "it is on device %x:%x, the profile recorded %s (another machine's file)",
		         major(sb.st_dev), minor(sb.st_dev), rec->device);
		return 1;
	}
	if ((uint64_t)sb.st_size <= rec->offset) {
		snprintf(why, cap, "it has %llu bytes, fewer than the mapped file offset 0x%llx (not the file mapped)",
		         (unsigned long long)sb.st_size, (unsigned long long)rec->offset);
		return 1;
	}
	return 0;
}
