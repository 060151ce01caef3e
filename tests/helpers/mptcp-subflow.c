// SPDX-License-Identifier: GPL-2.0
/*
 * mptcp-subflow - make the kernel create an MPTCP subflow socket in a task
 * of chosen cgroups, for an MPTCP connection created outside them.
 *
 * usage: mptcp-subflow [-g V1CGROUP] [-G V2CGROUP]
 *
 * In the current network namespace (the caller makes a new one and brings
 * its loopback up):
 *  1. select the userspace path manager (net.mptcp.pm_type = 1);
 *  2. open an MPTCP listener and a connection to it on 127.0.0.1 and send
 *     a byte each way, in the cgroups the caller runs in;
 *  3. join V1CGROUP and V2CGROUP (directories; their cgroup.procs);
 *  4. ask for a second subflow of the client's connection, from 127.0.0.1
 *     to the listener, with MPTCP_PM_CMD_SUBFLOW_CREATE of the "mptcp_pm"
 *     generic netlink family: the kernel creates that subflow's socket
 *     (a kernel socket) in this task, so in the cgroups of step 3, and
 *     moves it to the connection's cgroups when they differ;
 *  5. close everything, with resets.
 *
 * The request is repeated while the connection is not yet fully
 * established (ENOTCONN), for at most 5 s.  Prints "subflow created
 * token=T" and exits 0 when the kernel created the subflow; exits 1 with
 * a message on any failure.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <linux/mptcp.h>
#include <linux/netlink.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "helper-util.h"

#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef SOL_MPTCP
#define SOL_MPTCP 284
#endif

/* A generic netlink request being built: header, then attributes. */
struct genl_req {
	struct nlmsghdr nlh;
	struct genlmsghdr genl;
	char attrs[512];
};

static struct nlattr *attr_put(struct genl_req *req, uint16_t type,
			       const void *data, size_t len)
{
	struct nlattr *nla = (struct nlattr *)((char *)req + NLMSG_ALIGN(req->nlh.nlmsg_len));

	if (NLMSG_ALIGN(req->nlh.nlmsg_len) + NLA_HDRLEN + NLA_ALIGN(len) > sizeof(*req)) {
		errno = EMSGSIZE;
		die("netlink request");
	}
	nla->nla_type = type;
	nla->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)nla + NLA_HDRLEN, data, len);
	req->nlh.nlmsg_len = NLMSG_ALIGN(req->nlh.nlmsg_len) + NLA_ALIGN(nla->nla_len);
	return nla;
}

/* Close a nested attribute opened by attr_put(.., NULL, 0). */
static void attr_nest_end(struct genl_req *req, struct nlattr *nest)
{
	nest->nla_len = (char *)req + req->nlh.nlmsg_len - (char *)nest;
}

static void req_init(struct genl_req *req, uint16_t family, uint8_t cmd,
		     uint8_t version)
{
	memset(req, 0, sizeof(*req));
	req->nlh.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req->nlh.nlmsg_type = family;
	req->nlh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req->genl.cmd = cmd;
	req->genl.version = version;
}

/*
 * Send @req and read the answer.  Returns 0 or the negative errno of the
 * kernel's acknowledgement; with @family_id, also takes the family id out
 * of a CTRL_CMD_NEWFAMILY answer.
 */
static int genl_call(int fd, struct genl_req *req, uint16_t *family_id)
{
	static unsigned int seq;
	char buf[8192];
	int err = 1;

	req->nlh.nlmsg_seq = ++seq;
	if (send(fd, req, req->nlh.nlmsg_len, 0) < 0)
		die("netlink send");

	while (err > 0) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		struct nlmsghdr *nlh;

		if (n < 0)
			die("netlink recv");
		for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, (size_t)n);
		     nlh = NLMSG_NEXT(nlh, n)) {
			if (nlh->nlmsg_seq != seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				break;
			}
			if (family_id && nlh->nlmsg_type == GENL_ID_CTRL) {
				struct genlmsghdr *g = NLMSG_DATA(nlh);
				struct nlattr *nla = (struct nlattr *)((char *)g + GENL_HDRLEN);
				int len = nlh->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN);

				for (; len >= NLA_HDRLEN && nla->nla_len >= NLA_HDRLEN &&
				       nla->nla_len <= len;
				     len -= NLA_ALIGN(nla->nla_len),
				     nla = (struct nlattr *)((char *)nla + NLA_ALIGN(nla->nla_len)))
					if ((nla->nla_type & NLA_TYPE_MASK) == CTRL_ATTR_FAMILY_ID)
						memcpy(family_id, (char *)nla + NLA_HDRLEN,
						       sizeof(*family_id));
			}
		}
	}
	return err;
}

static void put_addr(struct genl_req *req, uint16_t type, uint8_t id,
		     uint16_t port)
{
	struct nlattr *nest = attr_put(req, type | NLA_F_NESTED, NULL, 0);
	uint32_t addr4 = htonl(INADDR_LOOPBACK);
	uint16_t family = AF_INET;

	attr_put(req, MPTCP_PM_ADDR_ATTR_FAMILY, &family, sizeof(family));
	attr_put(req, MPTCP_PM_ADDR_ATTR_ADDR4, &addr4, sizeof(addr4));
	if (id)
		attr_put(req, MPTCP_PM_ADDR_ATTR_ID, &id, sizeof(id));
	if (port)	/* host order: the kernel converts it */
		attr_put(req, MPTCP_PM_ADDR_ATTR_PORT, &port, sizeof(port));
	attr_nest_end(req, nest);
}

int main(int argc, char **argv)
{
	const char *v1 = NULL, *v2 = NULL;
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct linger abort_close = { .l_onoff = 1, .l_linger = 0 };
	socklen_t len = sizeof(sin);
	struct mptcp_info info;
	struct genl_req req;
	uint16_t pm_family = 0;
	int lfd, cfd, afd, nfd, opt, err, tries;
	char c = 'm';

	while ((opt = getopt(argc, argv, "g:G:")) != -1) {
		switch (opt) {
		case 'g':
			v1 = optarg;
			break;
		case 'G':
			v2 = optarg;
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc)
		goto usage;

	write_file("/proc/sys/net/mptcp/pm_type", "1\n");

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	if (lfd < 0)
		die("socket(IPPROTO_MPTCP)");
	if (bind(lfd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    listen(lfd, 4) < 0 ||
	    getsockname(lfd, (struct sockaddr *)&sin, &len) < 0)
		die("listener");
	cfd = socket(AF_INET, SOCK_STREAM, IPPROTO_MPTCP);
	if (cfd < 0 || connect(cfd, (struct sockaddr *)&sin, sizeof(sin)) < 0)
		die("connect");
	afd = accept(lfd, NULL, NULL);
	if (afd < 0)
		die("accept");
	if (write(cfd, &c, 1) != 1 || read(afd, &c, 1) != 1 ||
	    write(afd, &c, 1) != 1 || read(cfd, &c, 1) != 1)
		die("exchange");

	len = sizeof(info);
	memset(&info, 0, sizeof(info));
	if (getsockopt(cfd, SOL_MPTCP, MPTCP_INFO, &info, &len) < 0)
		die("getsockopt(MPTCP_INFO)");
	if (!info.mptcpi_token) {
		fprintf(stderr, "mptcp-subflow: the connection fell back to TCP (no token)\n");
		return 1;
	}

	if (v1)
		join_cgroup(v1);
	if (v2)
		join_cgroup(v2);

	nfd = socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC);
	if (nfd < 0)
		die("socket(NETLINK_GENERIC)");
	req_init(&req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1);
	attr_put(&req, CTRL_ATTR_FAMILY_NAME, MPTCP_PM_NAME, sizeof(MPTCP_PM_NAME));
	err = genl_call(nfd, &req, &pm_family);
	if (err || !pm_family) {
		errno = -err;
		die("generic netlink family " MPTCP_PM_NAME);
	}

	for (tries = 0;; tries++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		req_init(&req, pm_family, MPTCP_PM_CMD_SUBFLOW_CREATE, MPTCP_PM_VER);
		attr_put(&req, MPTCP_PM_ATTR_TOKEN, &info.mptcpi_token,
			 sizeof(info.mptcpi_token));
		put_addr(&req, MPTCP_PM_ATTR_ADDR, 1, 0);
		put_addr(&req, MPTCP_PM_ATTR_ADDR_REMOTE, 0, ntohs(sin.sin_port));
		err = genl_call(nfd, &req, NULL);
		if (err != -ENOTCONN || tries == 500)
			break;
		nanosleep(&ts, NULL);
	}
	if (err) {
		errno = -err;
		die("MPTCP_PM_CMD_SUBFLOW_CREATE");
	}
	printf("subflow created token=%u\n", info.mptcpi_token);

	/* Reset, not an orderly close: nothing lingers in FIN or TIME-WAIT
	 * states holding the cgroups after the program is gone.
	 */
	if (setsockopt(cfd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof(abort_close)) < 0 ||
	    setsockopt(afd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof(abort_close)) < 0)
		die("setsockopt(SO_LINGER)");
	close(nfd);
	close(afd);
	close(cfd);
	close(lfd);
	return 0;

usage:
	fprintf(stderr, "usage: mptcp-subflow [-g V1CGROUP] [-G V2CGROUP]\n");
	return 1;
}
