"""Demo deployment scripts: public ones (the account's and a community author's) and private
ones, one declaring user-defined fields."""

from __future__ import annotations

from tui.simulator.context import SeedContext
from tui.simulator.handlers.deployscripts import new_script
from tui.simulator.registry import seeder

DAY = 86400

LAMP_SCRIPT = """#!/bin/bash
# <UDF name="db_password" label="MySQL root password" />
# <UDF name="site_name" label="Site name" default="My site" example="shop.example.com" />
# <UDF name="php_version" label="PHP version" oneOf="8.2,8.3" default="8.3" />
set -euo pipefail
apt-get update
apt-get install -y apache2 mariadb-server "php${PHP_VERSION}" "libapache2-mod-php${PHP_VERSION}"
mysqladmin -u root password "$DB_PASSWORD"
echo "<h1>${SITE_NAME}</h1>" > /var/www/html/index.html
"""

DOCKER_SCRIPT = """#!/bin/sh
set -eu
curl -fsSL https://get.docker.com | sh
systemctl enable --now docker
"""

HARDENING_SCRIPT = """#!/bin/bash
# <UDF name="ssh_port" label="SSH port" default="22" />
# <UDF name="admin_user" label="Admin user name" example="ops" />
set -euo pipefail
sed -i "s/^#\\?Port .*/Port ${SSH_PORT}/" /etc/ssh/sshd_config
useradd -m -s /bin/bash "$ADMIN_USER"
systemctl restart ssh
"""

BACKUP_AGENT_SCRIPT = """#!/bin/bash
set -euo pipefail
install -m 0755 /dev/null /usr/local/bin/nightly-backup
echo '0 3 * * * root /usr/local/bin/nightly-backup' > /etc/cron.d/nightly-backup
"""

POS_SCRIPT = """#!/usr/bin/env python3
print("Configuring the café point-of-sale terminal")
"""


@seeder("deployscripts", order=6)
def seed_deployscripts(ctx: SeedContext) -> None:
    """Five scripts; the restricted user may edit one private script."""
    private_images = ctx.shared.get("images.private_ids") or []
    golden = private_images[0] if private_images else "compute/debian12"
    new_script(
        ctx.store,
        username="community-labs",
        label="LAMP stack",
        images=["compute/debian12", "compute/ubuntu24.04", "compute/ubuntu22.04"],
        script=LAMP_SCRIPT,
        now_iso=ctx.iso(-300 * DAY),
        description="Apache, MariaDB and PHP with a starter page.",
        rev_note="PHP version choice",
        is_public=True,
        deployments_total=18342,
        deployments_active=2211,
    )
    new_script(
        ctx.store,
        username="demo",
        label="Docker host",
        images=["any/all"],
        script=DOCKER_SCRIPT,
        now_iso=ctx.iso(-120 * DAY),
        description="Installs Docker from the upstream convenience script.",
        rev_note="initial",
        is_public=True,
        deployments_total=41,
        deployments_active=6,
    )
    hardening = new_script(
        ctx.store,
        username="demo",
        label="web-[prod] hardening",
        images=["compute/debian12", golden],
        script=HARDENING_SCRIPT,
        now_iso=ctx.iso(-60 * DAY),
        description="SSH port, admin user; used for the production web tier.",
        rev_note="admin user field",
        deployments_total=7,
        deployments_active=3,
    )
    new_script(
        ctx.store,
        username="demo",
        label="nightly backup agent",
        images=["compute/debian12", "compute/rocky9"],
        script=BACKUP_AGENT_SCRIPT,
        now_iso=ctx.iso(-30 * DAY),
        description="Cron job that ships a nightly archive.",
        deployments_total=2,
        deployments_active=2,
    )
    new_script(
        ctx.store,
        username="demo",
        label="café terminal setup",
        images=["compute/alpine3.20"],
        script=POS_SCRIPT,
        now_iso=ctx.iso(-5 * DAY),
        description="Point-of-sale terminal configuration.",
    )
    ctx.grant("deployscript", hardening["id"], hardening["label"], "read_write")
