from __future__ import annotations

from django.db import migrations

# v1's whitelist (data/publishers.json), in its order: the first match wins.
PUBLISHERS = [
    ("조선일보", "chosun.com", "종합일간지", ["it.chosun.com"]),
    ("중앙일보", "joongang.co.kr", "종합일간지", []),
    ("동아일보", "donga.com", "종합일간지", []),
    ("한겨레", "hani.co.kr", "종합일간지", []),
    ("경향신문", "khan.co.kr", "종합일간지", []),
    ("한국일보", "hankookilbo.com", "종합일간지", []),
    ("국민일보", "kmib.co.kr", "종합일간지", []),
    ("문화일보", "munhwa.com", "석간", []),
    ("서울신문", "seoul.co.kr", "석간", []),
    ("세계일보", "segye.com", "석간", []),
    ("매일경제", "mk.co.kr", "경제지", []),
    ("한국경제", "hankyung.com", "경제지", []),
    ("KBS", "news.kbs.co.kr", "지상파", []),
    ("MBC", "imnews.imbc.com", "지상파", []),
    ("SBS", "news.sbs.co.kr", "지상파", []),
    ("JTBC", "news.jtbc.co.kr", "종편", []),
    ("YTN", "ytn.co.kr", "보도전문", []),
    ("채널A", "ichannela.com", "종편", []),
    ("TV조선", "tvchosun.com", "종편", []),
    ("MBN", "mbn.co.kr", "종편", []),
    ("연합뉴스", "yna.co.kr", "통신사", []),
    ("뉴시스", "newsis.com", "통신사", []),
    ("뉴스1", "news1.kr", "통신사", []),
    ("머니투데이", "mt.co.kr", "경제지", []),
    ("헤럴드경제", "heraldcorp.com", "경제지", []),
    ("아시아경제", "asiae.co.kr", "경제지", []),
    ("이데일리", "edaily.co.kr", "경제지", []),
]


def seed(apps, schema_editor):
    Publisher = apps.get_model("agents", "Publisher")
    for position, (name, domain, category, excluded) in enumerate(PUBLISHERS, start=1):
        Publisher.objects.update_or_create(
            name=name,
            defaults={"domain": domain, "category": category, "exclude_subdomains": excluded, "position": position},
        )


def unseed(apps, schema_editor):
    apps.get_model("agents", "Publisher").objects.filter(name__in=[p[0] for p in PUBLISHERS]).delete()


class Migration(migrations.Migration):
    dependencies = [("agents", "0001_initial")]
    operations = [migrations.RunPython(seed, unseed)]
